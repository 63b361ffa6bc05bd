// Settings journey (issue 11 "Acceptance": "set the AI key in settings after confirming the lock"; spec part 1
// §2 "Settings (admin)", §4 "Settings editing", §9), in English and Spanish: the admin opens /admin/settings,
// finds the AI key locked and masked, confirms 'Are you sure to edit this setting?', types a key, saves it,
// and sees it locked again showing only its last 4 characters; the server holds the new key (revealed through
// the API). The key is cleared afterwards, so the other journeys keep the offline demo model.
import type { Page } from 'playwright-core';
import { afterAll, describe, inject } from 'vitest';
import settingsEn from '../web/src/i18n/admin-settings.en.json';
import settingsEs from '../web/src/i18n/admin-settings.es.json';
import { adminSessionToken, apiRequest } from './src/api';
import { expect, test } from './src/fixtures';
import { signIn, type UiLang } from './src/journey-steps';

const ui = {
  en: { t: settingsEn, locale: 'en-US' },
  es: { t: settingsEs, locale: 'es-ES' },
} as const;

async function adminLanguage(lang: UiLang) {
  await apiRequest('PUT', '/users', { token: await adminSessionToken(), body: { lang } });
}

afterAll(async () => {
  const token = await adminSessionToken();
  await apiRequest('PUT', '/appconfig', { token, body: [{ key: 'openai_secret_key', value: '' }] });
  await adminLanguage('en');
});

async function journey(page: Page, lang: UiLang) {
  const { t } = ui[lang];
  const key = `sk-proj-journey-${lang}-${Date.now().toString(36)}-k${lang === 'en' ? '4e2n' : '7s3s'}`;
  await adminLanguage(lang);
  await signIn(page, lang, inject('adminEmail'), inject('adminPassword'));

  await page.goto('/admin/settings');
  await page.getByRole('tab', { name: t.tabs.advanced }).click();
  const field = page.getByTestId('setting-openai_secret_key');
  await field.waitFor();
  // Locked: read-only.
  expect(await field.getAttribute('readonly')).not.toBeNull();

  // The Edit control asks first, with the warning.
  await page.getByTestId('edit-openai_secret_key').click();
  const dialog = page.getByRole('dialog', { name: t.secret.confirmTitle });
  await dialog.waitFor();
  expect(await dialog.textContent()).toContain(t.secret.warning.replace('{{label}}', t.fields.openai_secret_key));
  await dialog.getByRole('button', { name: t.secret.confirm }).click();
  await dialog.waitFor({ state: 'detached' });
  await expect.poll(() => field.getAttribute('readonly')).toBeNull();

  await field.fill(key);
  await page.getByTestId('settings-save').click();
  await page.getByText(t.saved).waitFor();
  // Saved and locked again: only the last 4 characters show.
  await expect.poll(() => field.inputValue()).toBe(`••••••••${key.slice(-4)}`);
  expect(await field.getAttribute('readonly')).not.toBeNull();

  // The server holds the new key.
  const revealed = await apiRequest<{ value: string }>('POST', '/appconfig/admin/reveal', { token: await adminSessionToken(), body: { key: 'openai_secret_key' } });
  expect(revealed.value).toBe(key);
}

describe('back office: settings', () => {
  for (const lang of ['en', 'es'] as const) {
    test(`${lang.toUpperCase()}: the admin sets the AI key after confirming the lock; it is saved and locked again, masked to its last 4 characters`, async ({ openPage }) => {
      const page = await openPage({ locale: ui[lang].locale });
      await journey(page, lang);
    });
  }
});
