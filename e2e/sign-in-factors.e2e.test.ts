// Sign-in factors (issue 33): two-factor with an authenticator app, the code computed here from the secret
// Settings shows, as the app would. EN: a user turns it on and signs in with a code. ES: a staff admin
// without one finds the back office closed, follows the link to Settings, turns it on, and gets in.
// Phone sign-in (EN and ES): the code texted to the account's number, read from the SMS outbox.
// Passkeys with Chromium's virtual authenticator (CDP WebAuthn): added in Settings, then a sign-in with the
// passkey alone (EN) and as the second step after a password (ES). WebAuthn refuses an IP address as the
// site, so those pages open the lane's server as localhost.
import { Secret, TOTP } from 'otpauth';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe } from 'vitest';
import { adminSessionToken, apiRequest } from './src/api';
import { expect, test } from './src/fixtures';
import { fillLogin, label, newcomer, signIn, signOut, signUpViaApi, texts, type UiLang } from './src/journey-steps';

// issue 33 item 1: phone sign-in. The journeys' server has no SMS provider, so the code lands in the SMS
// outbox (GET /api/admin/sms-outbox), where an admin reads it; the Twilio path is covered by the API tests.
let phoneCounter = 0;
/** A number no other account has (newcomer()'s is shared), in E.164 as a Mexican sign-up may type it. */
const uniquePhone = () => `+5255${String(Date.now() % 1_000_000).padStart(6, '0')}${String(++phoneCounter % 100).padStart(2, '0')}`;

async function textedCode(to: string, seen: ReadonlySet<number> = new Set()): Promise<{ code: string; smsId: number }> {
  const token = await adminSessionToken();
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const { items } = await apiRequest<{ items: { sms_id: number; text: string }[] }>('GET', `/admin/sms-outbox?to=${encodeURIComponent(to)}`, { token });
    const fresh = items.find((item) => !seen.has(item.sms_id));
    const code = fresh?.text.match(/\b(\d{6})\b/)?.[1];
    if (fresh && code) return { code, smsId: fresh.sms_id };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no text message reached ${to}`);
}

/** The code `offset` 30-second steps from now: each step's code is accepted once, so a second sign-in uses the next. */
const codeAt = (secret: string, offset = 0) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + offset * 30_000 });

/** Settings › Security: set up, read the key, confirm with a code; returns the secret once the recovery codes show. */
async function turnOnTwoFactor(page: Page, lang: UiLang): Promise<string> {
  const t = texts[lang].twoFactor;
  const card = page.getByTestId('two-factor-card');
  await card.getByRole('button', { name: t.setUp }).click();
  const secret = (await card.getByTestId('two-factor-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  expect(await card.getByRole('img', { name: t.qrAlt }).getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
  await card.getByLabel(label(t.codeLabel)).fill(codeAt(secret));
  await card.getByRole('button', { name: t.confirmButton }).click();
  await card.getByTestId('recovery-codes').getByText(t.recoveryTitle).waitFor();
  expect(await card.getByTestId('recovery-codes').locator('code').count()).toBe(10);
  return secret;
}

/** The code step of a sign-in: a wrong code is refused, the next step's code signs in. */
async function giveCode(page: Page, lang: UiLang, secret: string) {
  const t = texts[lang].twoFactor;
  const step = page.getByTestId('two-factor-form');
  await step.getByLabel(label(t.codeLabel)).fill('000000');
  await step.getByRole('button', { name: t.verifyButton }).click();
  await step.getByRole('alert').waitFor();
  await step.getByLabel(label(t.codeLabel)).fill(codeAt(secret, 1));
  await step.getByRole('button', { name: t.verifyButton }).click();
  await page.getByTestId('app-sidebar').waitFor();
}

/** A page on the lane's server as http://localhost:<port>, with a virtual platform authenticator (user verified). */
async function pageWithAuthenticator(openPage: (options?: BrowserContextOptions) => Promise<Page>, baseUrl: string, options: BrowserContextOptions = {}) {
  const page = await openPage({ baseURL: baseUrl.replace('127.0.0.1', 'localhost'), ...options });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return page;
}

/** Settings › Passkeys: names one and adds it through the browser's prompt (the virtual authenticator answers). */
async function addPasskey(page: Page, lang: UiLang, name: string) {
  const t = texts[lang].passkeys;
  await page.goto('/settings');
  const card = page.getByTestId('passkeys-card');
  await card.getByTestId('passkeys-empty').waitFor();
  await card.getByLabel(label(t.newName)).fill(name);
  await card.getByRole('button', { name: t.add }).click();
  await card.getByTestId('passkey-row').getByText(name).waitFor();
}

describe('sign-in factors', () => {
  for (const lang of ['en', 'es'] as const) {
    test(`[AUTH] a user signs in with a code texted to their phone; a wrong code is refused (${lang.toUpperCase()})`, async ({ openPage }) => {
      const t = texts[lang].phoneSignIn;
      const user = { ...newcomer(`phone-${lang}`), phone: uniquePhone() };
      await apiRequest('POST', '/auth/signup', { body: { ...user, lang } });
      // Typed another way than at sign-up: +52 55 1234 5678.
      const typed = `${user.phone.slice(0, 3)} ${user.phone.slice(3, 5)} ${user.phone.slice(5, 9)} ${user.phone.slice(9)}`;
      const page = await openPage({ locale: lang === 'es' ? 'es-ES' : 'en-US' });
      await page.goto('/auth/login');
      await page.getByRole('button', { name: t.option }).click();
      const form = page.getByTestId('phone-form');
      await form.getByLabel(label(t.phoneLabel)).fill(typed);
      await form.getByRole('button', { name: t.sendCode }).click();
      const codeForm = page.getByTestId('phone-code-form');
      await codeForm.getByRole('button', { name: new RegExp(t.resendIn.replace('{{seconds}}', '\\d+')) }).waitFor();
      const { code } = await textedCode(user.phone);
      await codeForm.getByLabel(label(t.codeLabel)).fill(code === '000000' ? '111111' : '000000');
      await codeForm.getByRole('button', { name: t.verifyButton }).click();
      await codeForm.getByRole('alert').waitFor();
      await codeForm.getByLabel(label(t.codeLabel)).fill(code);
      await codeForm.getByRole('button', { name: t.verifyButton }).click();
      await page.getByTestId('app-sidebar').waitFor();
    });
  }

  test('[AUTH] a user turns on two-factor in Settings and signs in with a code (EN)', async ({ page }) => {
    const user = newcomer('totp');
    await signUpViaApi(user);
    await signIn(page, 'en', user.email, user.password);
    await page.goto('/settings');
    const secret = await turnOnTwoFactor(page, 'en');
    await signOut(page, 'en');
    await page.goto('/auth/login');
    await fillLogin(page, 'en', user.email, user.password);
    await page.getByRole('heading', { name: texts.en.twoFactor.title }).waitFor();
    await giveCode(page, 'en', secret);
  });

  test('[AUTH] a staff admin without a second factor is sent to set one up, then opens the back office (ES)', async ({ page }) => {
    const es = texts.es;
    const admin = newcomer('staff-totp');
    await apiRequest('POST', '/auth/signup', { body: { ...admin, lang: 'es' } });
    await apiRequest('POST', '/staff', { token: await adminSessionToken(), body: { email: admin.email, role: 'admin' } });
    await signIn(page, 'en', admin.email, admin.password);
    await page.goto('/admin/users');
    const gate = page.getByTestId('two-factor-gate');
    await gate.getByText(es.twoFactor.gateText).waitFor();
    await gate.getByRole('link', { name: es.twoFactor.gateLink }).click();
    await page.getByTestId('two-factor-required').waitFor();
    const secret = await turnOnTwoFactor(page, 'es');
    await page.goto('/admin/users');
    await page.getByTestId('customers-page').waitFor();
    await signOut(page, 'es');
    await page.goto('/auth/login');
    await fillLogin(page, 'es', admin.email, admin.password);
    await page.getByRole('heading', { name: es.twoFactor.title }).waitFor();
    await giveCode(page, 'es', secret);
  });

  test('[AUTH] a passkey added in Settings signs in alone (EN) and as the second step after a password (ES)', async ({ openPage, baseUrl }) => {
    const en = await pageWithAuthenticator(openPage, baseUrl);
    const ana = newcomer('passkey');
    await signUpViaApi(ana);
    await signIn(en, 'en', ana.email, ana.password);
    await addPasskey(en, 'en', 'Work laptop');
    await signOut(en, 'en');
    await en.goto('/auth/login');
    await en.getByRole('button', { name: texts.en.passkeys.signIn }).click();
    await en.getByTestId('app-sidebar').waitFor();

    const es = await pageWithAuthenticator(openPage, baseUrl, { locale: 'es-ES' });
    const luis = newcomer('passkey-es');
    await apiRequest('POST', '/auth/signup', { body: { ...luis, lang: 'es' } });
    await signIn(es, 'es', luis.email, luis.password);
    await addPasskey(es, 'es', 'Portátil');
    await signOut(es, 'es');
    await es.goto('/auth/login');
    await fillLogin(es, 'es', luis.email, luis.password);
    await es.getByRole('heading', { name: texts.es.twoFactor.title }).waitFor();
    await es.getByRole('button', { name: texts.es.passkeys.useForSecondStep }).click();
    await es.getByTestId('app-sidebar').waitFor();
  });
});
