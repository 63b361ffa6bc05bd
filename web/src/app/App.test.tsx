// The whole app on a stubbed API: session routing, shell, navigation refresh and configuration look.
import { UNLIMITED_WORDS } from '@pluma/common/constants';
import type { CurrentUser } from '@pluma/common/users';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n';
import { buildUser, DEFAULT_CONFIG, stubFetch } from '../test/render';
import { App } from './App';

function start(path: string, options: { user?: CurrentUser | null; config?: Record<string, string> } = {}) {
  window.history.replaceState(null, '', path);
  const config = { ...DEFAULT_CONFIG, ...options.config };
  if (options.user) {
    localStorage.setItem('token', 'tok-1');
    localStorage.setItem('lastRefresh', String(Date.now()));
  }
  const stub = stubFetch({
    'GET /api/appconfig': () => ({ body: Object.entries(config).map(([key, value]) => ({ key, value })) }),
    'GET /api/users': () => (options.user ? { body: options.user } : { status: 401, body: { error: 'unauthenticated', message: 'Please sign in.' } }),
    'GET /api/products/available': () => ({ body: [] }),
    'POST /api/auth/logout': () => ({ status: 204 }),
  });
  render(<App />);
  return stub;
}

// The current user itself (GET /api/users), not the other calls under it (the settings' AI key, onboarding).
const usersCalls = (calls: { method: string; url: string }[]) => calls.filter((c) => c.method === 'GET' && /^\/api\/users(?:\?|$)/.test(c.url)).length;

describe('App', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('shows the login screen at /auth/login to a visitor', async () => {
    start('/auth/login');
    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeInTheDocument();
  });

  it('shows the login at / when the landing page is off', async () => {
    start('/', { config: { landing_enabled: 'false' } });
    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/recovery');
  });

  it('sends a signed-in user away from the auth screens into the shell', async () => {
    start('/auth/login', { user: buildUser({ available_words: UNLIMITED_WORDS }) });
    expect(await screen.findByTestId('app-sidebar', {}, { timeout: 8000 })).toBeInTheDocument();
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(screen.queryByTestId('login-form')).not.toBeInTheDocument();
    expect(screen.getByTestId('words-balance')).toHaveTextContent('Unlimited');
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
  });

  it('shows the no-access panel to a user without access, but lets them open Settings', async () => {
    start('/conversations', { user: buildUser({ has_access: false, available_words: 0 }) });
    const panel = await screen.findByTestId('no-access-panel', {}, { timeout: 8000 });
    // The chat's words (spec part 1 §2): more conversations and content need a paid subscription, and Upgrade.
    expect(within(panel).getByRole('heading', { level: 1 })).toHaveTextContent('More conversations and content need a paid subscription.');
    expect(within(panel).getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/upgrade');
    expect(within(panel).getByRole('link', { name: 'Get Access Now' })).toHaveAttribute('href', '/pricing');
    expect(within(panel).getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    expect(screen.getByTestId('upgrade-button')).toHaveAttribute('href', '/upgrade');

    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('user-menu'));
    await user.click(await screen.findByRole('menuitem', { name: 'Settings' }));
    expect(await screen.findByTestId('settings-page', {}, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.queryByTestId('no-access-panel')).not.toBeInTheDocument();
  });

  it('tells a user without access that creating avatars is a paid feature on /avatars (spec part 1 §2)', async () => {
    start('/avatars/3/settings', { user: buildUser({ has_access: false, available_words: 0 }) });
    const panel = await screen.findByTestId('no-access-panel', {}, { timeout: 8000 });
    expect(within(panel).getByRole('heading', { level: 1 })).toHaveTextContent('Creating avatars is a paid feature');
    expect(within(panel).queryByRole('link', { name: 'Upgrade' })).not.toBeInTheDocument();
  });

  it('builds breadcrumbs with a Back link and refreshes the user on every navigation', async () => {
    const { calls } = start('/settings', { user: buildUser() });
    expect(await screen.findByTestId('settings-page', {}, { timeout: 8000 })).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/');
    expect(within(crumbs).getByText('Settings')).toHaveAttribute('aria-current', 'page');
    await waitFor(() => expect(usersCalls(calls)).toBe(1));

    const user = userEvent.setup({ delay: null });
    await user.click(within(crumbs).getByRole('link', { name: 'Back' }));
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    // The next screen's code loads lazily; the navigation shows it once ready.
    await waitFor(() => expect(screen.queryByTestId('settings-page')).not.toBeInTheDocument(), { timeout: 8000 });
    await waitFor(() => expect(usersCalls(calls)).toBe(2));
  });

  it('signs out from the user menu', async () => {
    const { calls } = start('/profile', { user: buildUser() });
    expect(await screen.findByTestId('profile-page', {}, { timeout: 8000 })).toBeInTheDocument();
    // A document's unsaved text and generation records do not outlive the session on this browser.
    localStorage.setItem('pluma.documentDraft.1.personal.3', '{}');
    localStorage.setItem('pluma.documentGeneration.50', '[]');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('user-menu'));
    await user.click(await screen.findByRole('menuitem', { name: 'Log out' }));
    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
    expect(Object.keys(localStorage).filter((key) => key.startsWith('pluma.document'))).toEqual([]);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/api/auth/logout')).toBe(true));
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    await waitFor(() => expect(screen.queryByTestId('app-sidebar')).not.toBeInTheDocument(), { timeout: 8000 });
    expect(screen.queryByTestId('profile-page')).not.toBeInTheDocument();
  });

  it('applies the look of the configuration to the document', async () => {
    start('/auth/login', {
      config: {
        title: 'Acme Writer',
        favicon_url: 'https://cdn.example.com/acme.ico',
        social_media_image: 'https://cdn.example.com/og.png',
        app_css: '.acme { color: red; }',
        head_tracking_codes: '<meta name="acme-verification" content="42">',
        body_tracking_codes: '<div id="acme-pixel"></div>',
      },
    });
    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
    await waitFor(() => expect(document.head.querySelector<HTMLLinkElement>('link#app-favicon')?.href).toBe('https://cdn.example.com/acme.ico'));
    expect(document.head.querySelector('meta[property="og:image"]')).toHaveAttribute('content', 'https://cdn.example.com/og.png');
    expect(document.head.querySelector('meta[name="twitter:image"]')).toHaveAttribute('content', 'https://cdn.example.com/og.png');
    expect(document.getElementById('app-css')?.textContent).toBe('.acme { color: red; }');
    // Tracking codes are the server's job (written into index.html with the CSP nonce); added here, their
    // scripts would be blocked by the strict script CSP, or run twice.
    expect(document.head.querySelector('meta[name="acme-verification"]')).toBeNull();
    expect(document.getElementById('acme-pixel')).toBeNull();
    // The configured title is the site's (shared links); the tab shows the screen's own while it is shown.
    expect(document.head.querySelector('meta[property="og:title"]')).toHaveAttribute('content', 'Acme Writer');
    expect(document.title).toBe('Welcome back · Pluma');
  });
});
