// Organization products journey (issue 12 item 5; spec part 2 §2 /organization/admin/products, §3 Organization
// stripe_public/stripe_secret/stripe_webhook_secret), in English and Spanish: an organization's Admin saves
// the organization's Stripe keys in its settings (which show the webhook address to register), finds 'No
// products available.' in its products tab, adds a product through /organization/admin/products/new; a
// Member of the organization buys it through the normal checkout and the thank-you page turns completed,
// from the signed event Stripe sends to the organization's own webhook address. The Stripe emulator accepts
// ONLY the organization's secret key (the operator's is refused), so the purchase proves which keys were used.
import { startStripeEmulator, type RunningStripeEmulator } from '@pluma/emulators/stripe/index';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import adminProductsEn from '../web/src/i18n/admin-products.en.json';
import adminProductsEs from '../web/src/i18n/admin-products.es.json';
import checkoutEn from '../web/src/i18n/checkout.en.json';
import checkoutEs from '../web/src/i18n/checkout.es.json';
import organizationsEn from '../web/src/i18n/organizations.en.json';
import organizationsEs from '../web/src/i18n/organizations.es.json';
import { adminLoginBody, apiRequestAt } from './src/api';
import { artifactsDir, expect, test } from './src/fixtures';
import { fillLogin, newcomer, type UiLang } from './src/journey-steps';
import { restartableServer, type RestartableServer } from './src/restartable-server';

const ORG_KEYS = {
  secret: `sk_test_org_${randomBytes(8).toString('hex')}`,
  public: `pk_test_org_${randomBytes(8).toString('hex')}`,
  webhook: `whsec_org_${randomBytes(16).toString('hex')}`,
};
const ui = {
  en: { p: adminProductsEn, c: checkoutEn, o: organizationsEn, locale: 'en-US' },
  es: { p: adminProductsEs, c: checkoutEs, o: organizationsEs, locale: 'es-ES' },
} as const;

let server: RestartableServer;
let stripe: RunningStripeEmulator;
let staffToken = '';

beforeAll(async () => {
  stripe = await startStripeEmulator({ host: '127.0.0.1', port: 0, apiKey: ORG_KEYS.secret });
  server = await restartableServer({
    env: {
      // The operator's own keys: the emulator refuses them, so nothing here may use them.
      STRIPE_SECRET_KEY: `sk_test_operator_${randomBytes(8).toString('hex')}`,
      STRIPE_PUBLISHABLE_KEY: `pk_test_operator_${randomBytes(8).toString('hex')}`,
      STRIPE_WEBHOOK_SECRET: `whsec_operator_${randomBytes(16).toString('hex')}`,
      STRIPE_API_HOST: stripe.host,
      STRIPE_API_PORT: String(stripe.port),
      STRIPE_API_PROTOCOL: 'http',
      STRIPE_JS_URL: stripe.stripeJsUrl,
    },
    logFile: path.join(artifactsDir, 'server-organization-products.log'),
    seededDataDir: inject('seededDataDir'),
  });
  await server.start();
  staffToken = (await apiRequestAt<{ token: string }>(server.baseUrl, 'POST', '/auth/login', { body: adminLoginBody() })).token;
});

afterAll(async () => {
  await server?.dispose();
  await stripe?.close();
});

const api = <T>(method: string, route: string, body?: unknown, token = staffToken) => apiRequestAt<T>(server.baseUrl, method, route, { token, body });

/** A new account in `lang` with access (a gift of a seeded plan), so the signed-in shell and its sidebar show. */
async function customer(label: string, lang: UiLang) {
  const user = newcomer(label);
  const signedUp = await apiRequestAt<{ user: { user_id: number } }>(server.baseUrl, 'POST', '/auth/signup', { body: { ...user, lang } });
  const userId = signedUp.user.user_id;
  const plans = await api<{ product_id: number }[]>('GET', '/products/available');
  await api('POST', '/users/giveAccess', { user_id: userId, product_id: plans[0].product_id, gift: true });
  return { ...user, userId };
}

async function signInAt(page: Page, lang: UiLang, email: string, password: string) {
  await page.goto('/auth/login');
  await fillLogin(page, lang, email, password);
  await page.getByTestId('app-sidebar').waitFor();
}

async function pickOrganization(page: Page, name: string) {
  await page.getByTestId('organization-select').click();
  await page.getByRole('option', { name, exact: true }).click();
  await expect.poll(() => page.getByTestId('organization-select').inputValue()).toBe(name);
}

async function journey(openPage: (options?: { locale?: string; baseURL?: string }) => Promise<Page>, lang: UiLang) {
  const { p, c, o, locale } = ui[lang];
  const suffix = `${lang}-${Date.now().toString(36)}`;
  const admin = await customer(`org-products-admin-${lang}`, lang);
  const member = await customer(`org-products-member-${lang}`, lang);
  const { organization_id: organizationId, name: organizationName } = await api<{ organization_id: number; name: string }>('POST', '/organizations', {
    name: `${lang === 'es' ? 'Tienda' : 'Shop'} ${suffix}`,
  });
  await api('POST', '/organizations/users', { organization_id: organizationId, user_id: admin.userId, user_type_id: 1 });
  await api('POST', '/organizations/users', { organization_id: organizationId, user_id: member.userId, user_type_id: 3 });
  // Stripe sends the organization's events to the address its settings show, signed with its secret.
  stripe.webhooks.addEndpoint({ url: `${server.baseUrl}/api/stripe/webhook/organizations/${organizationId}`, secret: ORG_KEYS.webhook });

  // 1. The Admin saves the organization's Stripe keys; the settings name the webhook address.
  const page = await openPage({ locale, baseURL: server.baseUrl });
  await signInAt(page, lang, admin.email, admin.password);
  await pickOrganization(page, organizationName);
  await page.goto(`/organizations/organization-settings/${organizationId}`);
  await page.getByTestId('organization-form').waitFor();
  await page.getByText(o.settings.webhookHelp).waitFor();
  expect(await page.getByTestId('organization-webhook-url').textContent()).toBe(`${server.baseUrl}/api/stripe/webhook/organizations/${organizationId}`);
  await page.getByTestId('organization-stripe-public').fill(ORG_KEYS.public);
  for (const [field, value] of [
    ['stripe_secret', ORG_KEYS.secret],
    ['stripe_webhook_secret', ORG_KEYS.webhook],
  ] as const) {
    await page.getByTestId(`replace-${field}`).click();
    await page.getByTestId(`secret-${field}`).fill(value);
  }
  await page.getByTestId('organization-save').click();
  await expect.poll(() => page.getByTestId(`secret-stripe_secret`).inputValue(), { timeout: 15_000 }).toMatch(new RegExp(`${ORG_KEYS.secret.slice(-4)}$`));

  // 2. The products tab: empty, then a product added at /organization/admin/products/new.
  await page.goto('/organization/admin/products');
  await page.getByTestId('products-empty').waitFor();
  expect(await page.getByTestId('products-empty').textContent()).toBe(p.list.empty);
  await page.getByRole('link', { name: p.list.add }).click();
  await page.waitForURL(/\/organization\/admin\/products\/new$/);
  const productName = `${lang === 'es' ? 'Asiento' : 'Seat'} ${suffix}`;
  await page.getByTestId('product-name').fill(productName);
  await page.getByTestId('product-description').fill(lang === 'es' ? 'Para el equipo' : 'For the team');
  await page.getByTestId('product-price').fill('12.50');
  await page.getByTestId('product-word_amount').fill('5000');
  await page.getByTestId('product-save').click();
  await page.waitForURL(/\/organization\/admin\/products$/);
  const row = page.getByTestId('product-row').filter({ hasText: productName });
  await row.waitFor();
  const productId = Number((await row.locator('td').first().textContent())?.replace('#', ''));
  expect(productId).toBeGreaterThan(0);

  // 3. A Member buys it in the organization through the normal checkout: the organization's keys.
  const buyer = await openPage({ locale, baseURL: server.baseUrl });
  await signInAt(buyer, lang, member.email, member.password);
  await pickOrganization(buyer, organizationName);
  expect(await buyer.getByTestId('organization-nav-admin').count()).toBe(0);
  // The organization's pricing list (the saved choice restores the organization on a fresh load), then its plan.
  await buyer.goto('/pricing');
  await expect.poll(() => buyer.getByTestId('organization-select').inputValue()).toBe(organizationName);
  await buyer.getByRole('link', { name: new RegExp(productName) }).click();
  await buyer.waitForURL(new RegExp(`/checkout/${productId}$`));
  await buyer.getByTestId('stripe-emulator-payment-element').waitFor();
  // Its own Stripe account only: no PayPal, which would pay the operator.
  expect(await buyer.getByText(c.payment.orPayPal).count()).toBe(0);
  await buyer.locator('input[name=cardnumber]').fill('4242424242424242');
  await buyer.locator('input[name=exp-date]').fill('12/34');
  await buyer.locator('input[name=cvc]').fill('123');
  const pay = buyer.getByTestId('pay-now');
  await expect.poll(() => pay.isEnabled(), { timeout: 15_000 }).toBe(true);
  await pay.click();
  // The member's gifted plan makes this a "lower plan" (spec part 1 §4): confirmed once.
  const confirm = buyer.getByRole('dialog').getByRole('button', { name: c.downgrade.confirm });
  const next = await Promise.race([confirm.waitFor().then(() => 'confirm'), buyer.waitForURL(/\/thankyou\/\d+$/).then(() => 'paid')]);
  if (next === 'confirm') await confirm.click();
  await buyer.waitForURL(/\/thankyou\/\d+$/);
  await expect.poll(() => buyer.getByTestId('purchase-status').textContent(), { timeout: 20_000 }).toBe(c.thankyou.statuses.completed);

  // 4. The sale counts in the organization's analytics.
  const analytics = await api<{ products: { product_id: number; purchases: number; total_paid: number }[] }>(
    'GET',
    `/organizations/${organizationId}/analytics?organization_id=${organizationId}`,
  );
  expect(analytics.products).toContainEqual(expect.objectContaining({ product_id: productId, purchases: 1, total_paid: 12.5 }));
}

describe('organization products', () => {
  test("EN: the Admin saves the organization's Stripe keys and adds a product; a Member buys it with those keys", async ({ openPage }) => {
    await journey(openPage, 'en');
  });

  test('ES: the same journey in Spanish', async ({ openPage }) => {
    await journey(openPage, 'es');
  });
});
