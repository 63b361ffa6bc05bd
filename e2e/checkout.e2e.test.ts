// Checkout journey (issue 10 item 6; spec part 1 §2 Pricing, Checkout, Thank-you; §4; §8): a signed-out
// visitor picks a plan on /pricing, signs up on the checkout page itself, applies a discount, pays by card
// with 3-D Secure and watches the thank-you page turn final; then buys the subscription with the saved
// card after the downgrade warning. In Spanish, a declined card shows the spec's text, then another card
// pays. Runs its own server pointed at the Stripe emulator (its Stripe.js stand-in in the browser, its
// signed webhooks to the server), as PAYMENTS_DEMO does but under NODE_ENV=production.
import { startStripeEmulator, type RunningStripeEmulator } from '@pluma/emulators/stripe/index';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import checkoutEn from '../web/src/i18n/checkout.en.json';
import checkoutEs from '../web/src/i18n/checkout.es.json';
import { adminLoginBody, apiRequestAt } from './src/api';
import { artifactsDir, expect, test } from './src/fixtures';
import { label, newcomer, texts, type UiLang } from './src/journey-steps';
import { restartableServer, type RestartableServer } from './src/restartable-server';

const CODE = 'E2E20';
const checkoutTexts = { en: checkoutEn, es: checkoutEs } as const;

let server: RestartableServer;
let stripe: RunningStripeEmulator;

beforeAll(async () => {
  const secretKey = `sk_test_e2e_${randomBytes(8).toString('hex')}`;
  const webhookSecret = `whsec_e2e_${randomBytes(16).toString('hex')}`;
  stripe = await startStripeEmulator({ host: '127.0.0.1', port: 0, apiKey: secretKey });
  server = await restartableServer({
    env: {
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_PUBLISHABLE_KEY: `pk_test_e2e_${randomBytes(8).toString('hex')}`,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_HOST: stripe.host,
      STRIPE_API_PORT: String(stripe.port),
      STRIPE_API_PROTOCOL: 'http',
      STRIPE_JS_URL: stripe.stripeJsUrl,
    },
    logFile: path.join(artifactsDir, 'server-checkout.log'),
    seededDataDir: inject('seededDataDir'),
  });
  stripe.webhooks.addEndpoint({ url: `${server.baseUrl}/api/stripe/webhook`, secret: webhookSecret });
  await server.start();
  const admin = await apiRequestAt<{ token: string }>(server.baseUrl, 'POST', '/auth/login', { body: adminLoginBody() });
  await apiRequestAt(server.baseUrl, 'POST', '/discounts/admin', { token: admin.token, body: { code: CODE, is_percent: true, amount: 20 } });
});

afterAll(async () => {
  await server?.dispose();
  await stripe?.close();
});

async function signUpInline(page: Page, lang: UiLang) {
  const t = texts[lang];
  const user = newcomer(`checkout-${lang}`);
  const form = page.getByTestId('checkout-signup-form');
  await form.getByLabel(label(t.signup.name)).fill(user.name);
  await form.getByLabel(label(t.signup.lastName)).fill(user.last_name);
  await form.getByLabel(label(t.auth.email)).fill(user.email);
  await form.getByLabel(label(t.signup.phone)).fill(user.phone);
  await form.getByLabel(label(t.auth.password), { exact: false }).first().fill(user.password);
  await form.getByLabel(label(t.signup.confirmPassword)).fill(user.password);
  await form.getByRole('button', { name: t.signup.submit }).click();
  await page.getByTestId('payment-section').waitFor();
}

async function fillCard(page: Page, number: string) {
  await page.locator('input[name=cardnumber]').fill(number);
  await page.locator('input[name=exp-date]').fill('12/34');
  await page.locator('input[name=cvc]').fill('123');
}

describe('checkout', () => {
  test('EN: pricing → inline sign-up → discount → card with 3-D Secure → thank-you; then the saved card after the downgrade warning', async ({ openPage }) => {
    const c = checkoutTexts.en;
    const page = await openPage();
    await page.goto(`${server.baseUrl}/pricing`);
    await page.getByRole('link', { name: /Starter/ }).click();
    await page.waitForURL(/\/checkout\/\d+$/);
    await page.getByTestId('checkout-auth').waitFor();
    expect(await page.getByTestId('payment-section').count()).toBe(0);

    await signUpInline(page, 'en');
    expect(page.url()).toMatch(/\/checkout\/\d+$/);
    const pay = page.getByTestId('pay-now');
    expect(await pay.isDisabled()).toBe(true);

    await page.getByLabel(c.discount.label).fill(CODE);
    await page.getByRole('button', { name: c.discount.apply }).click();
    await page.getByTestId('discount-applied').waitFor();
    const total = await page.getByTestId('summary-total').textContent();
    expect(total).toContain('USD');

    await page.getByTestId('stripe-emulator-payment-element').waitFor();
    await fillCard(page, '4000002500003155');
    // Ticking the Payment Element's save box keeps the card for next time (redisplayed by Stripe).
    await page.locator('input[name=save-payment-method]').check();
    await expect.poll(() => pay.isEnabled(), { timeout: 15_000 }).toBe(true);
    await pay.click();
    const challenge = page.getByTestId('stripe-emulator-3ds');
    await challenge.waitFor();
    await challenge.getByRole('button', { name: 'Complete' }).click();

    await page.waitForURL(/\/thankyou\/\d+$/);
    await page.getByTestId('thankyou-page').waitFor();
    await expect.poll(() => page.getByTestId('purchase-status').getAttribute('data-status'), { timeout: 20_000 }).toMatch(/^(completed|active)$/);
    expect(await page.getByTestId('order-total').textContent()).toBe(total);
    expect(await page.getByTestId('order-date').textContent()).toMatch(/^\d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}$/);

    // The subscription (a higher plan than product 1: the spec's downgrade warning) with the saved card,
    // which the Payment Element lists and chooses first.
    await page.goto(`${server.baseUrl}/pricing`);
    await page.getByRole('link', { name: /Pro/ }).click();
    await page.waitForURL(/\/checkout\/\d+$/);
    await page.getByRole('radio', { name: 'Visa ending in 3155' }).waitFor();
    expect(await page.getByRole('radio', { name: 'Visa ending in 3155' }).isChecked()).toBe(true);
    await expect.poll(() => pay.isEnabled(), { timeout: 15_000 }).toBe(true);
    await pay.click();
    const modal = page.getByRole('dialog');
    await modal.getByRole('button', { name: c.downgrade.confirm }).click();
    await page.waitForURL(/\/thankyou\/\d+$/);
    await expect.poll(() => page.getByTestId('purchase-status').getAttribute('data-status'), { timeout: 20_000 }).toBe('active');
    await page.getByRole('link', { name: c.thankyou.ok }).click();
    await page.waitForURL((url) => url.pathname === '/');
    // Access and words in the shell (the Pro plan is unlimited).
    await expect.poll(() => page.getByTestId('words-balance').textContent(), { timeout: 15_000 }).toContain(texts.en.shell.unlimited);
  });

  test('ES: a declined card shows the spec text in Spanish, another card pays', async ({ openPage }) => {
    const c = checkoutTexts.es;
    const page = await openPage({ locale: 'es-ES' });
    await page.goto(`${server.baseUrl}/pricing`);
    await page.getByRole('link', { name: /Inicial/ }).click();
    await page.waitForURL(/\/checkout\/\d+$/);
    await signUpInline(page, 'es');
    await page.getByTestId('stripe-emulator-payment-element').waitFor();
    await fillCard(page, '4000000000000002');
    await page.getByTestId('pay-now').click();
    const error = page.getByTestId('payment-error');
    await error.waitFor();
    expect(await error.textContent()).toContain(c.errors.cardError.split('{{')[0].trim());
    await fillCard(page, '4242424242424242');
    await page.getByTestId('pay-now').click();
    await page.waitForURL(/\/thankyou\/\d+$/);
    await expect.poll(() => page.getByTestId('purchase-status').textContent(), { timeout: 20_000 }).toBe(c.thankyou.statuses.completed);
  });
});
