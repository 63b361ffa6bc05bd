// The signed-out screens' first paint (issue 9 item 10; server/src/platform/http/first-paint.ts): the page
// arrives with the screen drawn by the server, in the browser's language, shown until the app has rendered
// the same screen; nothing typed is lost, and visitors with a session never see it.
import type { Page, Route } from 'playwright-core';
import { describe } from 'vitest';
import { expect, test } from './src/fixtures';
import type { Conversation } from '@pluma/common/conversations';
import { apiRequest } from './src/api';
import { fillLogin, newcomer, signIn, signOut, signUpViaApi, texts, userWithAccess, type UiLang } from './src/journey-steps';

/** Holds the app's scripts until `release` is called: what a visitor sees before any script has run. */
async function holdScripts(page: Page) {
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/.+\.js$/, (route) => (released ? route.continue() : void held.push(route)));
  return async () => {
    released = true;
    await Promise.all(held.map((route) => route.continue()));
  };
}

const overlayShown = (page: Page) =>
  page.evaluate(() => {
    const overlay = document.getElementById('first-paint');
    return overlay ? getComputedStyle(overlay).display !== 'none' : false;
  });

describe('first paint', () => {
  for (const [lang, locale] of [
    ['en', 'en-US'],
    ['es', 'es-ES'],
  ] as [UiLang, string][]) {
    test(`[FIRST PAINT] (${lang}) the sign-in screen shows before the scripts run, then the app takes over and signs in`, async ({ openPage }) => {
      const page = await openPage({ locale });
      const release = await holdScripts(page);
      await page.goto('/auth/login', { waitUntil: 'domcontentloaded' });
      // Drawn by the server: the title in the visitor's language, inert and hidden from assistive technology.
      const drawn = page.locator('#first-paint');
      await drawn.getByText(texts[lang].auth.loginTitle, { exact: true }).waitFor();
      expect(await overlayShown(page)).toBe(true);
      expect(await drawn.getAttribute('aria-hidden')).toBe('true');
      expect(await drawn.evaluate((node) => (node as HTMLElement).inert)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      // Its fields take no input: nothing typed before the app arrives could be lost with the picture.
      expect(await drawn.locator('input').first().isEditable()).toBe(false);

      await release();
      await page.getByTestId('login-form').waitFor();
      await drawn.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.documentElement.hasAttribute('data-first-paint'))).toBe(false);

      const user = newcomer(`first-paint-${lang}`);
      await signUpViaApi(user);
      await fillLogin(page, lang, user.email, user.password);
      await page.waitForURL((url) => !url.pathname.startsWith('/auth'));
    });
  }

  test('[FIRST PAINT] a visitor with a saved session or another saved language never sees it', async ({ openPage }) => {
    const page = await openPage({ locale: 'en-US' });
    await page.goto('/privacidad');
    await page.evaluate(() => localStorage.setItem('lang', 'es'));
    let release = await holdScripts(page);
    await page.goto('/auth/login', { waitUntil: 'domcontentloaded' });
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-first-paint'))).toBeNull();
    expect(await overlayShown(page)).toBe(false);
    await release();
    await page.getByText(texts.es.auth.loginTitle, { exact: true }).waitFor();

    await page.unrouteAll();
    await page.evaluate(() => {
      localStorage.removeItem('lang');
      localStorage.setItem('token', 'a-session-token');
    });
    release = await holdScripts(page);
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    expect(await overlayShown(page)).toBe(false);
    await release();
  });

  test("[FIRST PAINT] (es) a signed-in user's open conversation shows before the scripts run, until the app shows its messages", async ({ openPage }) => {
    const user = await userWithAccess('first-paint-chat', 'es');
    const conversation = await apiRequest<Conversation>('POST', '/conversations', { token: user.token, body: { name: 'Borrador de prueba' } });
    await apiRequest('POST', '/messages', { token: user.token, body: { conversation_id: conversation.conversation_id, content: '[words:40] Un párrafo sobre borradores', stream: false } });
    const page = await openPage({ locale: 'en-US' });
    // Signing in through the app is what gives the browser the first-paint cookie (web/src/api/token-store.ts).
    await signIn(page, 'en', user.email, user.password);

    const release = await holdScripts(page);
    await page.goto(`/conversations/${conversation.conversation_id}`, { waitUntil: 'domcontentloaded' });
    const drawn = page.locator('#first-paint');
    // Drawn by the server in the user's language (Spanish, though the browser asks for English), inert.
    await drawn.getByText('Un párrafo sobre borradores').first().waitFor();
    await drawn.getByText('Borrador de prueba').first().waitFor();
    expect(await overlayShown(page)).toBe(true);
    expect(await drawn.evaluate((node) => (node as HTMLElement).inert)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');

    await release();
    await page.getByTestId('message-history').getByText('Un párrafo sobre borradores').first().waitFor();
    await drawn.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-first-paint-screen'))).toBe(false);

    // Signed out, the cookie goes with the session: the next visit draws nothing of the conversation.
    await signOut(page, 'es');
    await page.unrouteAll();
    const response = await page.request.get(`/conversations/${conversation.conversation_id}`);
    expect(await response.text()).not.toContain('Borrador de prueba');
  });
});
