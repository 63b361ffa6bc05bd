// Onboarding (spec part 2 §2, §4; issue 13 item 7): the start-up check of a visit that starts at / for a
// user with a default organization (loading screen, then the onboarding screen or the main panel), the
// walkthrough of the first conversation, the subscription notice without access, and the floating
// collapsible walkthrough video; EN and ES.
import type { OnboardingStatus } from '@pluma/common/onboarding';
import type { CurrentUser } from '@pluma/common/users';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import { OnboardingGate, OnboardingOutlet } from './OnboardingGate';
import WalkthroughVideo, { VIDEO_HIDDEN_KEY } from './WalkthroughVideo';
import { videoSource } from './video-source';

afterEach(async () => {
  vi.useRealTimers();
  localStorage.clear();
  await i18n.changeLanguage('en');
});

const member = (overrides: Partial<CurrentUser> = {}) => buildUser({ default_organization: { organization_id: 5 }, ...overrides });

function status(overrides: Partial<OnboardingStatus> = {}): OnboardingStatus {
  return {
    conversation_count: 0,
    first_conversation: null,
    owns_avatar: false,
    purchase: { purchase_id: 3, status: 'active', createdAt: '2025-01-01T00:00:00.000Z', product: { product_id: 2, name: 'Team plan', video_src: null } },
    needs_onboarding: true,
    ...overrides,
  };
}

function renderGate(user: CurrentUser, route = '/') {
  return renderScreen(
    <OnboardingGate>
      <Suspense fallback={null}>
        <OnboardingOutlet>
          <div data-testid="main-panel">main</div>
        </OnboardingOutlet>
      </Suspense>
    </OnboardingGate>,
    { session: fakeSession(user), route },
  );
}

const onboardingCalls = (calls: { url: string }[]) => calls.filter((c) => c.url.includes('/api/users/onboarding'));

describe('the start-up check', () => {
  it('shows the loading screen, then the onboarding screen with the plan and the first conversation', async () => {
    const { calls } = stubFetch({
      'GET /api/users/onboarding': () => ({ body: status({ conversation_count: 1, first_conversation: { conversation_id: 41, name: 'Launch post', model: null } }) }),
      'GET /api/messages/conversation/41': () => ({
        body: {
          messages: [
            { message_id: 2, role: 'assistant', content: 'Here is a draft.' },
            { message_id: 1, role: 'user', content: 'Write a launch post' },
          ],
          next_cursor: null,
        },
      }),
    });
    renderGate(member());
    expect(screen.getByTestId('loading-screen')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Welcome to Pluma' })).toBeInTheDocument();
    expect(screen.queryByTestId('main-panel')).not.toBeInTheDocument();
    expect(screen.getByTestId('onboarding-plan')).toHaveTextContent('Your plan: Team plan');
    // The walkthrough: the first conversation's messages, oldest first, and a link to continue it.
    expect(await screen.findByRole('heading', { name: 'Launch post' })).toBeInTheDocument();
    const rows = screen.getAllByTestId('walkthrough-message');
    expect(rows.map((row) => row.dataset.role)).toEqual(['user', 'assistant']);
    expect(rows[0]).toHaveTextContent('Write a launch post');
    expect(screen.getByTestId('walkthrough-open')).toHaveAttribute('href', '/conversations/41');
    expect(onboardingCalls(calls)).toHaveLength(1);

    // Continuing shows the main panel.
    await userEvent.setup({ delay: null }).click(screen.getByTestId('onboarding-continue'));
    expect(screen.getByTestId('main-panel')).toBeInTheDocument();
  });

  it('shows the main panel when the user has two conversations or an avatar, or when the check fails', async () => {
    stubFetch({ 'GET /api/users/onboarding': () => ({ body: status({ conversation_count: 2, needs_onboarding: false }) }) });
    const first = renderGate(member());
    expect(await screen.findByTestId('main-panel')).toBeInTheDocument();
    expect(screen.queryByTestId('onboarding-page')).not.toBeInTheDocument();
    first.unmount();

    stubFetch({ 'GET /api/users/onboarding': () => ({ status: 500, body: { error: 'internal', message: 'Boom' } }) });
    renderGate(member());
    expect(await screen.findByTestId('main-panel')).toBeInTheDocument();
  });

  it('never delays a visit that starts elsewhere (an open conversation), nor a user without a default organization', async () => {
    const { calls } = stubFetch({ 'GET /api/users/onboarding': () => ({ body: status() }) });
    const first = renderGate(member(), '/conversations/41');
    // At once: no loading screen, no request.
    expect(screen.getByTestId('main-panel')).toBeInTheDocument();
    expect(screen.queryByTestId('loading-screen')).not.toBeInTheDocument();
    first.unmount();
    renderGate(buildUser({ default_organization: null }));
    expect(screen.getByTestId('main-panel')).toBeInTheDocument();
    await act(async () => {});
    expect(onboardingCalls(calls)).toHaveLength(0);
  });

  it('offers a way out after 30 seconds of loading', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // The check never answers.
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>(() => {})));
    renderGate(member());
    expect(screen.getByTestId('loading-screen')).toBeInTheDocument();
    expect(screen.queryByTestId('loading-redirect')).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    expect(screen.getByTestId('loading-redirect')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });
});

describe('the walkthrough without a conversation', () => {
  it('offers to start one with access', async () => {
    stubFetch({ 'GET /api/users/onboarding': () => ({ body: status() }) });
    renderGate(member());
    expect(await screen.findByText('Start your first conversation: type what you want to write.')).toBeInTheDocument();
    expect(screen.queryByTestId('walkthrough-no-access')).not.toBeInTheDocument();
  });

  it("says that more content requires an active subscription without access (EN and ES)", async () => {
    stubFetch({ 'GET /api/users/onboarding': () => ({ body: status({ purchase: null }) }) });
    const first = renderGate(member({ has_access: false }));
    const notice = await screen.findByTestId('walkthrough-no-access');
    expect(notice).toHaveTextContent('Creating more content with Pluma requires an active subscription.');
    expect(screen.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/upgrade');
    expect(screen.queryByTestId('onboarding-plan')).not.toBeInTheDocument();
    first.unmount();

    await setLanguage('es');
    renderGate(member({ has_access: false, lang: 'es' }));
    expect(await screen.findByTestId('walkthrough-no-access')).toHaveTextContent('Crear más contenido con Pluma requiere una suscripción activa.');
    expect(screen.getByRole('heading', { name: 'Te damos la bienvenida a Pluma' })).toBeInTheDocument();
  });
});

describe('the floating walkthrough video', () => {
  const withVideo = (video_src: string | null) =>
    buildUser({ purchase: { purchase_id: 1, status: 'active', product_id: 2, product: { product_id: 2, name: 'Plan', video_src }, createdAt: '2025-01-01T00:00:00.000Z', expires_at: '2099-01-01T00:00:00.000Z' } });

  it("shows the current purchase's video, collapses and expands it, and remembers the choice", async () => {
    stubFetch({});
    const first = renderScreen(<WalkthroughVideo />, { session: fakeSession(withVideo('https://videos.example.com/welcome.mp4')) });
    expect(await screen.findByTestId('walkthrough-video-player')).toHaveAttribute('src', 'https://videos.example.com/welcome.mp4');
    const user = userEvent.setup({ delay: null });
    const toggle = screen.getByRole('button', { name: 'Hide' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.click(toggle);
    expect(screen.queryByTestId('walkthrough-video-player')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show' })).toHaveAttribute('aria-expanded', 'false');
    expect(localStorage.getItem(VIDEO_HIDDEN_KEY)).toBe('1');
    first.unmount();

    // Spanish labels (Mostrar/Ocultar), hidden as left.
    await setLanguage('es');
    renderScreen(<WalkthroughVideo />, { session: fakeSession(withVideo('https://videos.example.com/welcome.mp4')) });
    await user.click(await screen.findByRole('button', { name: 'Mostrar' }));
    expect(screen.getByRole('button', { name: 'Ocultar' })).toBeInTheDocument();
    expect(screen.getByTestId('walkthrough-video-player')).toBeInTheDocument();
  });

  it('shows nothing without a video or with an address that is not a web link', async () => {
    stubFetch({});
    for (const src of [null, 'javascript:alert(1)', 'not a url']) {
      const { unmount } = renderScreen(<WalkthroughVideo />, { session: fakeSession(withVideo(src)) });
      await act(async () => {});
      expect(screen.queryByTestId('walkthrough-video')).not.toBeInTheDocument();
      unmount();
    }
  });

  it('plays YouTube and Vimeo links through their embed players', () => {
    expect(videoSource('https://www.youtube.com/watch?v=dQw4w9WgXcQ')).toEqual({ kind: 'embed', src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ' });
    expect(videoSource('https://youtu.be/dQw4w9WgXcQ?t=3')).toEqual({ kind: 'embed', src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ' });
    expect(videoSource('https://vimeo.com/76979871')).toEqual({ kind: 'embed', src: 'https://player.vimeo.com/video/76979871' });
    expect(videoSource('https://www.youtube.com/watch?v=<script>')).toBeNull();
    expect(videoSource('data:video/mp4;base64,AAAA')).toBeNull();
  });
});
