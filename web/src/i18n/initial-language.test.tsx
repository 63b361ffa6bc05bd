// The language a visitor starts in: saved on this browser → the browser's own → English.
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserLanguage, i18n } from './index';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

/** Loads the i18n module afresh, as a page load does, with the browser set to `languages`. */
async function loadWithBrowser(languages: string[]) {
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(languages[0]);
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  vi.resetModules();
  return import('./index');
}

describe('initial language', () => {
  it('takes the first language of the browser that we have', () => {
    expect(browserLanguage({ language: 'es-MX', languages: ['es-MX', 'en'] })).toBe('es');
    expect(browserLanguage({ language: 'fr-FR', languages: ['fr-FR', 'es', 'en'] })).toBe('es');
    expect(browserLanguage({ language: 'en-GB', languages: [] })).toBe('en');
    expect(browserLanguage({ language: 'de', languages: ['de'] })).toBeNull();
    expect(browserLanguage({ language: '', languages: [] })).toBeNull();
  });

  it('a Spanish browser with no saved language sees the Spanish sign-in', async () => {
    const fresh = await loadWithBrowser(['es-ES', 'es']);
    expect(fresh.i18n.language).toBe('es');
    const { renderScreen } = await import('../test/render');
    const { default: LoginPage } = await import('../features/auth/LoginPage');
    renderScreen(<LoginPage />);
    expect(screen.getByRole('heading', { name: 'Qué bueno verte de nuevo' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Iniciar sesión' })).toBeInTheDocument();
    // Chosen, not saved: the browser's language is not a choice of the visitor's.
    expect(localStorage.getItem('lang')).toBeNull();
  });

  it('a language saved on this browser wins over the browser’s', async () => {
    localStorage.setItem('lang', 'en');
    const fresh = await loadWithBrowser(['es-MX']);
    expect(fresh.i18n.language).toBe('en');
  });

  it('an unknown browser language falls back to English', async () => {
    const fresh = await loadWithBrowser(['de-DE']);
    expect(fresh.i18n.language).toBe('en');
  });
});
