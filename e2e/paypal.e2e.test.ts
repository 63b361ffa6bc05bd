// PayPal subscription journey (issue 10 item 4 and item 7 "switching plans"; spec part 1 §2 Checkout,
// Thank-you, Billing), EN and ES: a signed-in customer subscribes with the checkout page's own PayPal
// button (PayPal's JS SDK v6, whose script the browser context serves from the PayPal emulator's stand-in:
// commerce.routePayPalWebSdk), approves in PayPal's window, and watches the thank-you page turn active once
// PayPal's webhook arrives (held until then, so the waiting state is seen). Then they switch to a plan paid
// by card: once Stripe's webhook makes it live, the PayPal subscription is cancelled at PayPal (checked in
// the emulator) and /billing shows the PayPal plan cancelled and the card plan active.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import billingEn from '../web/src/i18n/billing.en.json';
import billingEs from '../web/src/i18n/billing.es.json';
import checkoutEn from '../web/src/i18n/checkout.en.json';
import checkoutEs from '../web/src/i18n/checkout.es.json';
import paypalEn from '../web/src/i18n/paypal.en.json';
import paypalEs from '../web/src/i18n/paypal.es.json';
import { apiRequestAt } from './src/api';
import { startCommerceServer, type CommerceServer } from './src/commerce-server';
import { artifactsDir, expect, test } from './src/fixtures';
import { fillLogin, newcomer, type UiLang } from './src/journey-steps';

const ui = {
  en: { checkout: checkoutEn, billing: billingEn, paypal: paypalEn, locale: 'en-US' },
  es: { checkout: checkoutEs, billing: billingEs, paypal: paypalEs, locale: 'es-ES' },
} as const;

let commerce: CommerceServer;

beforeAll(async () => {
  commerce = await startCommerceServer({ logFile: path.join(artifactsDir, 'server-paypal.log') });
});

afterAll(async () => {
  await commerce?.close();
});

interface CreatedProduct {
  product_id: number;
}

/** A monthly subscription product, made by the admin (product numbers grow, so the later one is no downgrade). */
async function monthlyPlan(name: string, price: number, words: number): Promise<CreatedProduct> {
  return apiRequestAt<CreatedProduct>(commerce.baseUrl, 'POST', '/products', {
    token: commerce.adminToken,
    body: { name, description: `${name}, billed monthly.`, price, word_amount: words, is_subscription: true, subscription_period: 'month', subscription_interval: 1, available: true },
  });
}

/** PayPal's own view of a subscription (the emulator takes any client credentials for reads). */
async function payPalSubscriptionStatus(id: string): Promise<string> {
  const response = await fetch(`${commerce.paypal.origin}/v1/billing/subscriptions/${encodeURIComponent(id)}`, {
    headers: { authorization: `Basic ${Buffer.from('journey:journey').toString('base64')}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { status: string }).status;
}

async function waitForStatus(page: Page, lang: UiLang, status: 'active') {
  const badge = page.getByTestId('purchase-status');
  await expect.poll(() => badge.getAttribute('data-status'), { timeout: 20_000 }).toBe(status);
  expect(await badge.textContent()).toBe(ui[lang].checkout.thankyou.statuses[status]);
}

async function journey(page: Page, lang: UiLang) {
  const { checkout: c, billing: b } = ui[lang];
  // Both providers' webhooks flowing, whatever a failed run before this one left held.
  for (const webhooks of [commerce.stripe.webhooks, commerce.paypal.webhooks]) {
    webhooks.configure({ hold: false });
    webhooks.release();
  }
  const viaPayPal = await monthlyPlan(`PayPal Monthly ${lang}`, 12, 12_000);
  const viaCard = await monthlyPlan(`Card Monthly ${lang}`, 18, 18_000);

  // A signed-in customer (signed up through the API: signing up is the commerce journey's).
  const user = newcomer(`paypal-${lang}`);
  const { token } = await apiRequestAt<{ token: string }>(commerce.baseUrl, 'POST', '/auth/signup', { body: { ...user, lang } });
  await page.goto(`${commerce.baseUrl}/auth/login`);
  await fillLogin(page, lang, user.email, user.password);
  await page.getByTestId('app-sidebar').waitFor();

  // 1. Subscribe with the page's own PayPal button: PayPal's window shows the plan the server created.
  await page.goto(`${commerce.baseUrl}/checkout/${viaPayPal.product_id}`);
  const paypalArea = page.getByTestId('paypal-checkout');
  await paypalArea.waitFor();
  expect(await paypalArea.getByText(ui[lang].paypal.or).count()).toBe(1);
  // The SDK writes its button in the screen's language (the locale it is given).
  const subscribeButton = paypalArea.getByRole('button', { name: lang === 'es' ? 'Suscribirse con PayPal' : 'Subscribe with PayPal' });
  await expect.poll(() => subscribeButton.isEnabled()).toBe(true);
  // PayPal's webhooks are held meanwhile, so the thank-you page is seen waiting for the activation.
  commerce.paypal.webhooks.configure({ hold: true });
  const popupOpened = page.waitForEvent('popup');
  await subscribeButton.click();
  const paypalWindow = await popupOpened;
  await paypalWindow.waitForURL((url) => url.origin === commerce.paypal.origin && url.pathname === '/webapps/billing/subscriptions');
  await paypalWindow.getByRole('button', { name: 'Approve' }).waitFor();
  expect(await paypalWindow.locator('main').textContent()).toContain('12.00');
  const paypalClosed = paypalWindow.waitForEvent('close');
  await paypalWindow.getByRole('button', { name: 'Approve' }).click();
  await paypalClosed;

  // 2. The thank-you page: processing until PayPal's webhook arrives (PayPal knows the subscription), then active.
  await page.waitForURL(/\/thankyou\/\d+$/);
  const badge = page.getByTestId('purchase-status');
  await badge.waitFor();
  expect(await badge.getAttribute('data-status')).toBe('pending');
  expect(await badge.textContent()).toBe(c.thankyou.statuses.processing);
  await page.getByText(c.thankyou.processing).waitFor();
  commerce.paypal.webhooks.configure({ hold: false });
  expect(commerce.paypal.webhooks.release()).toBeGreaterThan(0);
  await waitForStatus(page, lang, 'active');
  const paypalPurchaseId = Number(new URL(page.url()).pathname.split('/').pop());
  const paypalPurchase = await apiRequestAt<{ subscription_id: string; status: string }>(commerce.baseUrl, 'GET', `/purchases/${paypalPurchaseId}`, { token });
  expect(paypalPurchase.subscription_id).toMatch(/^I-/);
  expect(await payPalSubscriptionStatus(paypalPurchase.subscription_id)).toBe('ACTIVE');

  // 3. Switch to a plan paid by card: once Stripe makes it live, the PayPal subscription is cancelled at PayPal.
  await page.goto(`${commerce.baseUrl}/checkout/${viaCard.product_id}`);
  await page.getByTestId('payment-section').waitFor();
  const form = page.getByTestId('stripe-emulator-payment-element');
  await form.waitFor();
  await form.locator('input[name=cardnumber]').pressSequentially('4242424242424242');
  await form.locator('input[name=exp-date]').pressSequentially('1234');
  await form.locator('input[name=cvc]').pressSequentially('123');
  const pay = page.getByTestId('pay-now');
  await expect.poll(() => pay.isEnabled()).toBe(true);
  await pay.click();
  await page.waitForURL(/\/thankyou\/\d+$/);
  await waitForStatus(page, lang, 'active');
  await expect.poll(() => payPalSubscriptionStatus(paypalPurchase.subscription_id), { timeout: 20_000 }).toBe('CANCELLED');

  // 4. /billing: the PayPal plan cancelled by the switch (nothing left to cancel), the card plan active.
  await page.goto(`${commerce.baseUrl}/billing`);
  const paypalRow = page.getByTestId('purchase-row').filter({ hasText: `PayPal Monthly ${lang}` });
  const cardRow = page.getByTestId('purchase-row').filter({ hasText: `Card Monthly ${lang}` });
  await paypalRow.waitFor();
  await expect.poll(() => paypalRow.getByTestId('status-badge').textContent()).toBe(b.statuses.cancelled);
  expect(await cardRow.getByTestId('status-badge').textContent()).toBe(b.statuses.active);
  expect(await paypalRow.getByRole('button', { name: b.cancel.buttonLabel.replace('{{product}}', `PayPal Monthly ${lang}`) }).count()).toBe(0);
  expect(await cardRow.getByRole('button', { name: b.cancel.buttonLabel.replace('{{product}}', `Card Monthly ${lang}`) }).count()).toBe(1);
  expect(await page.getByTestId('purchase-row').count()).toBe(2);
}

describe('paypal', () => {
  for (const lang of ['en', 'es'] as const) {
    test(`${lang.toUpperCase()}: subscribe with the PayPal button → thank-you turns active on PayPal's webhook; switching to a card plan cancels the PayPal subscription`, async ({ openPage }) => {
      const page = await openPage({ locale: ui[lang].locale });
      await commerce.routePayPalWebSdk(page.context());
      await journey(page, lang);
    });
  }
});
