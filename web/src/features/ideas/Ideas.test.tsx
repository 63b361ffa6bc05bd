// The topics and hashtags screens (spec part 2 §2 "Topics and hashtags", §8 clipboard failure): the form and
// its limits, Generate with its loading state, the ideas copied one by one or all, the history paged newest
// first with re-copy and delete, the empty state, EN/ES, 412 → /sorry; the tabs follow their switches.
import type { Idea, IdeaList } from '@pluma/common/ideas';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import { ideasFeature } from './feature';
import { HashtagsPage, TopicsPage } from './IdeasPage';

const writeText = vi.fn(async (_text: string) => undefined);
beforeEach(() => {
  writeText.mockReset();
  writeText.mockResolvedValue(undefined);
});
/** user-event installs its own clipboard on setup: ours goes in after it. */
function setupUser() {
  const user = userEvent.setup({ delay: null });
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  return user;
}
afterEach(async () => {
  await i18n.changeLanguage('en');
});

function idea(overrides: Partial<Idea> = {}): Idea {
  return {
    idea_id: 1,
    message_type_id: 3,
    kind: 'topics',
    subject: 'Healthy breakfasts',
    language: 'en',
    count: 3,
    items: ['Overnight oats', 'Smoothie bowls', 'Egg muffins'],
    avatar_id: null,
    avatar_name: null,
    createdAt: '2026-01-02T10:00:00.000Z',
    abilities: { read: true, delete: true },
    ...overrides,
  };
}
const list = (ideas: Idea[], total = ideas.length): IdeaList => ({ ideas, total, page: 1, page_size: 10 });
const avatars = { avatars: [{ avatar_id: 7, name: 'Chef' }], total: 1 };

describe('topics screen', () => {
  it('generates with the form values, shows the ideas with copy buttons, then lists them in the history', async () => {
    let history = list([]);
    const { calls } = stubFetch({
      'GET /api/ideas/topics': () => ({ body: history }),
      'GET /api/avatars': () => ({ body: avatars }),
      'POST /api/ideas/topics': () => {
        history = list([idea({ idea_id: 9, avatar_id: 7, avatar_name: 'Chef' })]);
        return { status: 201, body: idea({ idea_id: 9, avatar_id: 7, avatar_name: 'Chef' }) };
      },
    });
    const session = fakeSession(buildUser());
    renderScreen(<TopicsPage />, { session });
    expect(await screen.findByTestId('ideas-empty')).toHaveTextContent('No history available');
    expect(screen.getByRole('heading', { name: 'Topics' })).toBeInTheDocument();

    const user = setupUser();
    // An empty subject is refused before any call.
    await user.click(screen.getByTestId('generate-ideas'));
    expect(await screen.findByText("The input can't be empty")).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(screen.getByTestId('idea-subject'), '  Healthy breakfasts ');
    const count = screen.getByTestId('idea-count');
    expect(screen.getByLabelText('How many topics (2 to 5)')).toBe(count);
    expect(count).toHaveValue('5');
    await user.clear(count);
    await user.type(count, '3');
    await waitFor(() => expect(calls.some((c) => c.url.includes('/api/avatars'))).toBe(true));
    fireEvent.click(screen.getByTestId('idea-avatar'));
    fireEvent.click(await screen.findByRole('option', { name: 'Chef', hidden: true }));
    await user.click(screen.getByTestId('generate-ideas'));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ subject: 'Healthy breakfasts', count: 3, avatar_id: 7 }));

    const result = await screen.findByTestId('idea-result');
    expect(within(result).getAllByTestId('idea-item').map((el) => el.textContent)).toEqual(['Overnight oats', 'Smoothie bowls', 'Egg muffins']);
    await user.click(within(result).getByRole('button', { name: 'Copy Smoothie bowls' }));
    expect(writeText).toHaveBeenLastCalledWith('Smoothie bowls');
    await user.click(within(result).getByRole('button', { name: 'Copy all' }));
    expect(writeText).toHaveBeenLastCalledWith('Overnight oats\nSmoothie bowls\nEgg muffins');
    expect(session.reloadUser).toHaveBeenCalled();

    const entry = await screen.findByTestId('idea-9');
    expect(entry).toHaveTextContent('Healthy breakfasts');
    expect(entry).toHaveTextContent('Chef');
    expect(screen.queryByTestId('ideas-empty')).toBeNull();
  });

  it('shows the loading state while generating and goes to /sorry on a 412', async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => undefined;
    const pending = new Promise<{ status: number; body: unknown }>((resolve) => (answer = resolve));
    const fetchStub = stubFetch({
      'GET /api/ideas/topics': () => ({ body: list([]) }),
      'GET /api/avatars': () => ({ body: { avatars: [], total: 0 } }),
    });
    const original = fetchStub.fetchMock.getMockImplementation();
    fetchStub.fetchMock.mockImplementation(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      if ((init.method ?? 'GET').toUpperCase() === 'POST') {
        const { status, body } = await pending;
        return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
      }
      return original!(input, init);
    });
    renderScreen(<TopicsPage />, { session: fakeSession(buildUser()), route: '/topics' });
    const user = setupUser();
    await user.type(await screen.findByTestId('idea-subject'), 'Cats');
    await user.click(screen.getByTestId('generate-ideas'));
    expect(await screen.findByTestId('ideas-generating')).toHaveTextContent('Looking for topic ideas...');
    // Generate became Stop while it runs.
    expect(screen.queryByTestId('generate-ideas')).toBeNull();
    expect(screen.getByTestId('stop-ideas')).toHaveTextContent('Stop');
    await act(async () => answer({ status: 412, body: { error: 'premium_required', message: 'This is a premium feature. Please, upgrade your account.' } }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/sorry'));
  });

  for (const [lang, how, text] of [
    ['en', 'the Stop button', 'Stopped. Nothing was saved or charged.'],
    ['es', 'Esc', 'Detenido. No se guardó ni se cobró nada.'],
  ] as const) {
    it(`Stop (issue 30 item 1, ${lang}): ${how} aborts the request, says nothing was kept and frees Generate`, async () => {
      await setLanguage(lang);
      let sent: AbortSignal | undefined;
      const fetchStub = stubFetch({
        'GET /api/ideas/topics': () => ({ body: list([]) }),
        'GET /api/avatars': () => ({ body: { avatars: [], total: 0 } }),
      });
      const original = fetchStub.fetchMock.getMockImplementation();
      fetchStub.fetchMock.mockImplementation(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        if ((init.method ?? 'GET').toUpperCase() !== 'POST') return original!(input, init);
        sent = init.signal ?? undefined;
        // Never answers: only an abort ends it, as fetch does.
        return new Promise<Response>((_resolve, reject) => sent?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))));
      });
      renderScreen(<TopicsPage />, { session: fakeSession(buildUser({ lang })), route: '/topics' });
      const user = setupUser();
      await user.type(await screen.findByTestId('idea-subject'), 'Cats');
      await user.click(screen.getByTestId('generate-ideas'));
      const stop = await screen.findByTestId('stop-ideas');
      expect(sent?.aborted).toBe(false);
      if (how === 'Esc') await user.keyboard('{Escape}');
      else await user.click(stop);
      expect(sent?.aborted).toBe(true);
      expect(await screen.findByText(text)).toBeInTheDocument();
      expect(await screen.findByTestId('generate-ideas')).toBeEnabled();
      expect(screen.queryByTestId('ideas-generating')).toBeNull();
      expect(screen.queryByTestId('idea-result')).toBeNull();
    });
  }

  it("says so when the clipboard refuses (spec part 2 §8)", async () => {
    stubFetch({ 'GET /api/ideas/topics': () => ({ body: list([idea()]) }), 'GET /api/avatars': () => ({ body: avatars }) });
    writeText.mockRejectedValue(new Error('denied'));
    renderScreen(<TopicsPage />, { session: fakeSession(buildUser()) });
    const entry = await screen.findByTestId('idea-1');
    await setupUser().click(within(entry).getByRole('button', { name: 'Copy Overnight oats' }));
    expect(await screen.findByText('Unable to copy content to clipboard. Please copy manually.')).toBeInTheDocument();
  });
});

describe('hashtags screen', () => {
  it('in Spanish: the limits, the history paged, copy all as one line, delete', async () => {
    await setLanguage('es');
    const tags = idea({ idea_id: 4, message_type_id: 2, kind: 'hashtags', subject: 'Correr al amanecer', count: 10, items: ['#correr', '#amanecer'] });
    let deleted = false;
    const { calls } = stubFetch({
      'GET /api/ideas/hashtags': (_init, url) =>
        url.includes('page=2') ? { body: { ...list([idea({ idea_id: 5, kind: 'hashtags', message_type_id: 2, subject: 'Antiguo', items: ['#viejo'] })], 11), page: 2 } } : { body: list(deleted ? [] : [tags], deleted ? 10 : 11) },
      'GET /api/avatars': () => ({ body: avatars }),
      'DELETE /api/ideas/4': () => {
        deleted = true;
        return { body: { deleted: true } };
      },
    });
    renderScreen(<HashtagsPage />, { session: fakeSession(buildUser({ lang: 'es' })) });
    const entry = await screen.findByTestId('idea-4');
    expect(screen.getByRole('heading', { name: 'Historial' })).toBeInTheDocument();
    expect(screen.getByLabelText('Cuántos hashtags (de 10 a 20)')).toHaveValue('15');
    const user = setupUser();
    await user.click(within(entry).getByRole('button', { name: 'Copiar todo' }));
    expect(writeText).toHaveBeenLastCalledWith('#correr #amanecer');

    await user.click(screen.getByRole('button', { name: '2' }));
    expect(await screen.findByTestId('idea-5')).toHaveTextContent('#viejo');
    await user.click(screen.getByRole('button', { name: '1' }));
    await user.click(within(await screen.findByTestId('idea-4')).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/api/ideas/4'))).toBe(true));
    expect(await screen.findByText('Eliminado.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('idea-4')).toBeNull());
    expect(await screen.findByTestId('ideas-empty')).toHaveTextContent('No hay historial disponible');
  });
});

describe('ideas feature', () => {
  it('offers /topics and /hashtags, each tab behind its switch (spec part 1 §2)', () => {
    expect(ideasFeature.routes?.map((r) => r.path)).toEqual(['/topics', '/hashtags']);
    expect(ideasFeature.tabs?.map((tab) => [tab.to, tab.configKey, tab.hiddenInOrganization ?? false])).toEqual([
      ['/hashtags', 'hashtags_enabled', false],
      ['/topics', 'topics_enabled', false],
    ]);
  });
});
