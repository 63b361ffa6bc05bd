import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import LandingPage from './LandingPage';

// The app's own i18n (test/setup.ts sets it back to English after each test). Choosing a language
// (applyLanguage) switches it and saves the choice on this browser: the tests read both.
beforeAll(async () => {
  await i18n.loadNamespaces('landing');
  await i18n.loadLanguages('es');
});
const savedLanguage = () => localStorage.getItem('lang');

function serveConfig(entries: { key: string; value: string }[], status = 200) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(entries), { status, headers: { 'content-type': 'application/json' } }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderLanding(lang: 'en' | 'es') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const ui = (
    <QueryClientProvider client={client}>
      <MantineProvider>
        <MemoryRouter initialEntries={[lang === 'es' ? '/latam' : '/']}>
          <LandingPage lang={lang} />
        </MemoryRouter>
      </MantineProvider>
    </QueryClientProvider>
  );
  render(ui);
}

describe('LandingPage', () => {
  it('shows the configured title, tagline and features, with Get Started to the sign-up form', async () => {
    const fetchMock = serveConfig([
      { key: 'app_name', value: 'Tinta' },
      { key: 'title', value: 'Write like a pro' },
      { key: 'tagline', value: 'Posts, emails and scripts in minutes.' },
      { key: 'feature1_title', value: 'Fast drafts' },
      { key: 'feature2_title', value: 'Your voice' },
      { key: 'feature3_title', value: 'Teams' },
    ]);
    renderLanding('en');
    expect(await screen.findByRole('heading', { level: 1, name: 'Write like a pro' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/appconfig', expect.anything());
    expect(screen.getByText('Posts, emails and scripts in minutes.')).toBeInTheDocument();
    for (const title of ['Fast drafts', 'Your voice', 'Teams']) expect(screen.getByRole('heading', { level: 3, name: title })).toBeInTheDocument();
    const getStarted = screen.getAllByRole('link', { name: /Get Started/ });
    expect(getStarted.length).toBeGreaterThan(0);
    expect(getStarted).toHaveLength(3); // top bar, hero, closing call to action
    for (const link of getStarted) expect(link).toHaveAttribute('href', '/auth/signup');
    expect(screen.getByRole('link', { name: 'Privacy' })).toHaveAttribute('href', '/privacidad');
    expect(document.title).toBe('Write like a pro');
    // No benefits configured: no benefits section.
    expect(screen.queryByRole('heading', { name: 'Exclusive benefits' })).not.toBeInTheDocument();
  });

  it('sends Get Started to the login when sign-up is switched off', async () => {
    serveConfig([{ key: 'signup_enabled', value: 'false' }]);
    renderLanding('en');
    await screen.findByRole('heading', { level: 1 });
    for (const link of screen.getAllByRole('link', { name: /Get Started/ })) expect(link).toHaveAttribute('href', '/auth/login');
  });

  it('keeps Log in in the top bar at phone width (only the section anchors are desktop-only)', async () => {
    serveConfig([{ key: 'spanish_enabled', value: 'true' }]);
    renderLanding('es');
    const header = (await screen.findAllByRole('banner'))[0]!;
    const login = within(header).getByRole('link', { name: 'Iniciar sesión' });
    expect(login).toHaveAttribute('href', '/auth/login');
    // The phone rule hides `.desktopOnly` (landing.module.css); Log in must not be under it.
    expect(login.closest('.desktopOnly')).toBeNull();
    expect(within(header).getByRole('link', { name: 'Funciones' })).toHaveClass('desktopOnly');
    expect(within(header).getByRole('link', { name: /Comenzar/ })).toHaveAttribute('href', '/auth/signup');
  });

  it('shows the exclusive benefits and the high-ticket offer link when configured', async () => {
    serveConfig([
      { key: 'benefit1_title', value: 'Weekly coaching' },
      { key: 'benefit2_title', value: 'Done-for-you templates' },
      { key: 'high_ticket_offer_name', value: 'Mastermind' },
      { key: 'high_ticket_offer_link', value: 'https://example.com/mastermind' },
    ]);
    renderLanding('en');
    const heading = await screen.findByRole('heading', { name: 'Exclusive benefits' });
    const section = heading.closest('section')!;
    expect(within(section).getByRole('heading', { name: 'Weekly coaching' })).toBeInTheDocument();
    expect(within(section).getByRole('heading', { name: 'Done-for-you templates' })).toBeInTheDocument();
    const offer = within(section).getByRole('link', { name: /Sign up for Mastermind/ });
    expect(offer).toHaveAttribute('href', 'https://example.com/mastermind');
    expect(offer).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('uses the configured hero image and logo, and the configured class names', async () => {
    serveConfig([
      { key: 'app_name', value: 'Tinta' },
      { key: 'landing_image_src', value: 'https://cdn.example.com/hero.png' },
      { key: 'landing_logo_src', value: '/api/files/logo.png' },
      { key: 'landing_bg_className', value: 'brand-bg' },
      { key: 'landing_text_className', value: 'brand-text' },
    ]);
    renderLanding('en');
    expect(await screen.findByRole('img', { name: 'Tinta preview' })).toHaveAttribute('src', 'https://cdn.example.com/hero.png');
    expect(screen.getAllByRole('img', { name: 'Tinta' })[0]).toHaveAttribute('src', '/api/files/logo.png');
    expect(document.querySelector('.brand-bg')).not.toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).closest('.brand-text')).not.toBeNull();
  });

  it('on /latam switches the app to Spanish and sets the Spanish 10X headline as page title', async () => {
    serveConfig([]);
    renderLanding('es');
    expect(await screen.findByRole('heading', { level: 1, name: 'Crea contenido auténtico 10X más rápido' })).toBeInTheDocument();
    await waitFor(() => expect(i18n.language).toBe('es'));
    expect(savedLanguage()).toBe('es');
    expect(document.title).toBe('Crea contenido auténtico 10X más rápido | Pluma');
    expect(document.documentElement.lang).toBe('es');
    for (const link of screen.getAllByRole('link', { name: /Comenzar/ })) expect(link).toHaveAttribute('href', '/auth/signup');
    expect(screen.getByRole('heading', { level: 3, name: 'Conversa con los mejores modelos' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Privacidad' })).toHaveAttribute('href', '/privacidad');
  });

  it('still shows the landing with the defaults when the configuration cannot be loaded', async () => {
    serveConfig([], 500);
    renderLanding('en');
    expect(await screen.findByRole('heading', { level: 1, name: 'Pluma — write 10× faster with AI' })).toBeInTheDocument();
  });

  it('hides the language switch when Spanish is disabled', async () => {
    serveConfig([{ key: 'spanish_enabled', value: 'false' }]);
    renderLanding('en');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('link', { name: /español/i })).not.toBeInTheDocument();
  });

  it('the English landing leaves the language alone; its Español link switches to Spanish', async () => {
    serveConfig([]);
    renderLanding('en');
    await screen.findByRole('heading', { level: 1 });
    expect(i18n.language).toBe('en');
    expect(savedLanguage()).toBeNull();
    const [headerSwitch] = screen.getAllByRole('link', { name: /español/i });
    expect(headerSwitch).toHaveAttribute('href', '/latam');
    fireEvent.click(headerSwitch);
    expect(savedLanguage()).toBe('es');
    await waitFor(() => expect(i18n.language).toBe('es'));
  });
});
