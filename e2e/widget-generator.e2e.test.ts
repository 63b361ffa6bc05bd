// The chat widget generator journey (issue 15 item 3; spec part 2 §2 "Chat widget generator", §5, §8), in
// English and Spanish: a user with access and an avatar opens the Chat Widget tab, meets the checks in the
// spec's order (avatar, then name), generates a widget for one website, reads the snippet (public key, no
// user id) and copies it, sees it hide when an input changes, turns the widget off, rotates its key (the
// code changes), opens its (empty) conversations and deletes it; axe on the page and the code dialog.
import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import widgetsEn from '../web/src/i18n/widgets.en.json';
import widgetsEs from '../web/src/i18n/widgets.es.json';
import { expectNoSeriousA11yViolations } from './src/a11y';
import { apiRequest } from './src/api';
import { expect, test } from './src/fixtures';
import { signIn, texts, userWithAccess, type UiLang } from './src/journey-steps';

const widgetTexts = { en: widgetsEn, es: widgetsEs } as const;
const script = {
  en: { avatar: 'Shop assistant', widget: 'Shop <helper> & "friends"', site: 'https://shop.example.com' },
  es: { avatar: 'Asistente de la tienda', widget: 'Ayudante <tienda> & "amigos"', site: 'https://tienda.example.com' },
} as const;
const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '');

async function generatorJourney(page: Page, lang: UiLang) {
  const t = widgetTexts[lang];
  const s = script[lang];
  const user = await userWithAccess(`widget-generator-${lang}`, lang);
  // An avatar needs its owner's own AI key (spec part 1 §1).
  await apiRequest('PUT', '/users/ai-key', { token: user.token, body: { api_key: 'sk-proj-widget-generator-0123456789' } });
  await apiRequest('POST', '/avatars', { token: user.token, body: { name: s.avatar, context: 'Answers shop questions briefly.' } });
  const me = await apiRequest<{ user_id: number }>('GET', '/users', { token: user.token });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, lang, user.email, user.password);

  await page.getByTestId('app-sidebar').getByRole('link', { name: texts[lang].breadcrumbs['chat-widget-generator'] }).click();
  await page.waitForURL(/\/chat-widget-generator$/);
  await page.getByTestId('widgets-empty').getByText(t.list.empty).waitFor();
  await expectNoSeriousA11yViolations(page, `widget generator (${lang})`);

  // spec §5: the avatar first, then the name.
  await page.getByTestId('widget-generate').click();
  await page.getByTestId('app-error').getByText(t.errors.avatarRequired).waitFor();
  await page.getByTestId('widget-avatar').click();
  await page.getByRole('option', { name: s.avatar }).click();
  await page.getByTestId('widget-generate').click();
  await page.getByTestId('widget-form').getByText(t.errors.nameRequired).waitFor();

  await page.getByTestId('widget-name').fill(s.widget);
  await expect.poll(() => page.getByTestId('widget-accent').inputValue()).toBe('#ff0000');
  await page.getByTestId('widget-origins').fill(`${s.site}/\nnot a site`);
  await page.getByTestId('widget-generate').click();
  await page.getByTestId('widget-form').getByText(fill(t.errors.originInvalid, { line: '2', value: 'not a site' })).waitFor();
  await page.getByTestId('widget-origins').fill(`${s.site}/`);
  await page.getByTestId('widget-generate').click();
  await page.getByText(fill(t.generated, { name: s.widget })).waitFor();

  const snippet = (await page.getByTestId('widget-snippet').textContent()) ?? '';
  const key = /data-key="(pw_[A-Za-z0-9_-]{32})"/.exec(snippet)?.[1];
  expect(key).toBeDefined();
  expect(snippet).toContain(`data-lang="${lang}"`);
  expect(snippet).not.toContain(`"${me.user_id}"`);
  const container = await page.evaluate((html) => {
    const doc = new DOMParser().parseFromString(html, 'text/html');
    const node = doc.querySelector('#pluma-chat-widget');
    return { scripts: doc.querySelectorAll('script').length, name: node?.getAttribute('data-name'), attributes: node?.getAttributeNames().sort() };
  }, snippet);
  expect(container).toEqual({ scripts: 1, name: s.widget, attributes: ['data-accent', 'data-image', 'data-key', 'data-lang', 'data-name', 'id'] });

  await page.getByTestId('widget-copy').click();
  await page.getByText(t.snippet.copied).waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet);

  // The snippet hides again when any input changes (spec).
  await page.getByTestId('widget-accent').fill('#0b7285');
  await expect.poll(() => page.getByTestId('widget-snippet').count()).toBe(0);

  const card = page.getByTestId('widget-card');
  await expect.poll(() => card.count()).toBe(1);
  expect(await card.getByTestId('widget-origins-list').textContent()).toBe(s.site);

  // Off, then a new key after the warning: the code shown carries it.
  await card.getByRole('switch', { name: fill(t.list.enabledLabel, { name: s.widget }) }).click({ force: true });
  await page.getByText(fill(t.list.turnedOff, { name: s.widget })).waitFor();
  await card.getByTestId('widget-rotate').click();
  const rotate = page.getByTestId('widget-rotate-modal');
  await rotate.getByText(t.rotate.warning).waitFor();
  await rotate.getByRole('button', { name: t.rotate.confirm }).click();
  const code = page.getByTestId('widget-rotate-modal');
  await code.getByTestId('widget-snippet').waitFor();
  const rotated = (await code.getByTestId('widget-snippet').textContent()) ?? '';
  expect(rotated).toMatch(/data-key="pw_[A-Za-z0-9_-]{32}"/);
  expect(rotated).not.toContain(key!);
  await expectNoSeriousA11yViolations(page, `widget code dialog (${lang})`);
  await page.keyboard.press('Escape');
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

  // Its conversations: none yet.
  await card.getByTestId('widget-conversations').click();
  await page.waitForURL(/\/chat-widget-generator\/\d+\/conversations$/);
  await page.getByTestId('widget-sessions-empty').getByText(t.sessions.empty).waitFor();
  await page.getByRole('heading', { name: fill(t.sessions.title, { name: s.widget }) }).waitFor();
  await expectNoSeriousA11yViolations(page, `widget conversations (${lang})`);
  await page.getByRole('link', { name: t.sessions.back }).click();

  // Delete after confirming.
  await page.getByTestId('widget-card').getByTestId('widget-delete').click();
  const remove = page.getByTestId('widget-delete-modal');
  await remove.getByText(t.delete.warning).waitFor();
  await remove.getByRole('button', { name: t.delete.confirm }).click();
  await page.getByTestId('widgets-empty').waitFor();
  expect((await apiRequest<{ widgets: unknown[] }>('GET', '/widgets', { token: user.token })).widgets).toEqual([]);
}

describe('chat widget generator', () => {
  test('in English', async ({ page }) => {
    await generatorJourney(page, 'en');
  });

  test('in Spanish', async ({ openPage }) => {
    await generatorJourney(await openPage({ locale: 'es-ES' }), 'es');
  });
});
