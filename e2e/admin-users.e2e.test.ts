// Back-office customers journey (issue 11 "Acceptance", item 2; spec part 1 §2 /admin/users and the customer
// detail, §4 give access), in English and Spanish: the admin finds a new customer on /admin/users by email
// (debounced search), opens the detail, gives access to a product as a gift (the total becomes 0 and the
// payment method goes away), sees the purchase listed, adds an invoice for it on the customer's page, logs
// in as the user in a new window — which shows the "Viewing as" bar and the customer's own shell — and
// comes back with "Stop viewing", the admin's own session untouched in the first window; then /admin (the
// purchases and invoices list) shows the gift (total $0.00) and its invoice for that customer.
import type { Page } from 'playwright-core';
import { afterAll, describe, inject } from 'vitest';
import adminPurchasesEn from '../web/src/i18n/admin-purchases.en.json';
import adminPurchasesEs from '../web/src/i18n/admin-purchases.es.json';
import adminUsersEn from '../web/src/i18n/admin-users.en.json';
import adminUsersEs from '../web/src/i18n/admin-users.es.json';
import { adminSessionToken, apiRequest } from './src/api';
import { expect, test } from './src/fixtures';
import { label, newcomer, signIn, signUpViaApi, type UiLang } from './src/journey-steps';

const ui = {
  en: { t: adminUsersEn, purchases: adminPurchasesEn, locale: 'en-US' },
  es: { t: adminUsersEs, purchases: adminPurchasesEs, locale: 'es-ES' },
} as const;

/** The admin's interface language follows the profile once signed in. */
async function adminLanguage(lang: UiLang) {
  await apiRequest('PUT', '/users', { token: await adminSessionToken(), body: { lang } });
}

afterAll(async () => {
  await adminLanguage('en');
});

async function journey(page: Page, lang: UiLang) {
  const { t, purchases: p } = ui[lang];
  const admin = await adminSessionToken();
  const customer = newcomer(`customers-${lang}`);
  await signUpViaApi(customer);
  const product = await apiRequest<{ product_id: number; name: string }>('POST', '/products', {
    token: admin,
    body: { name: `Customers plan ${lang} ${Date.now().toString(36)}`, description: 'A plan for the customers journey.', price: 20, word_amount: 1000, expiration_days: 30, available: true },
  });
  await adminLanguage(lang);
  await signIn(page, lang, inject('adminEmail'), inject('adminPassword'));

  // 1. /admin/users: the customer signed up this month, found by email after the debounce.
  await page.goto('/admin/users');
  await page.getByTestId('customers-page').waitFor();
  await page.getByTestId('customers-search').fill(customer.email);
  await expect.poll(() => page.getByTestId('customer-row').count()).toBe(1);
  const row = page.getByTestId('customer-row');
  expect(await row.textContent()).toContain(t.list.notUsed);
  await row.getByRole('link', { name: `${customer.name} ${customer.last_name}` }).click();

  // 2. Detail: give access as a gift.
  await page.getByTestId('customer-page').waitFor();
  expect(await page.getByTestId('profile-card').textContent()).toContain(customer.email);
  await page.getByTestId('give-access').click();
  const modal = page.getByTestId('give-access-modal');
  await modal.getByTestId('give-access-product').click();
  await page.getByRole('option', { name: product.name, exact: true }).click();
  await expect.poll(() => modal.getByTestId('give-access-days').inputValue()).toBe('30');
  await modal.getByTestId('give-access-method').waitFor();
  await modal.getByRole('switch', { name: t.access.gift }).check();
  await expect.poll(() => modal.getByTestId('give-access-total').inputValue()).toBe('$0');
  expect(await modal.getByTestId('give-access-method').count()).toBe(0);
  await modal.getByRole('button', { name: t.access.give }).click();
  await modal.waitFor({ state: 'hidden' });
  const purchase = page.getByTestId('customer-purchase').filter({ hasText: product.name });
  await purchase.waitFor();
  expect(await purchase.textContent()).toContain(t.access.giftBadge);
  const giftId = Number(await purchase.locator('td').first().textContent());
  expect(giftId).toBeGreaterThan(0);

  // 3. Add an invoice for the gift on the customer's page (the editor already names the customer).
  await page.getByTestId('add-invoice').click();
  const invoiceModal = page.getByTestId('invoice-modal');
  await invoiceModal.getByLabel(label(p.invoice.purchaseId)).fill(String(giftId));
  await invoiceModal.getByLabel(label(p.invoice.orderId)).fill(`gift-${lang}`);
  await invoiceModal.getByRole('button', { name: p.invoice.save }).click();
  await invoiceModal.waitFor({ state: 'detached' });
  await page.getByText(t.detail.invoiceSaved).waitFor();
  await expect.poll(() => page.getByTestId('customer-invoice').count()).toBe(1);
  const invoiceCells = await page.getByTestId('customer-invoice').locator('td').allTextContents();
  const invoiceId = Number(invoiceCells[0]);
  expect(invoiceCells[1]).toBe(String(giftId));

  // 4. Log in as the user in a new window: the customer's shell with the "Viewing as" bar.
  const [viewer] = await Promise.all([page.context().waitForEvent('page'), page.getByTestId('login-as').click()]);
  const bar = viewer.getByTestId('viewing-as-bar');
  await bar.waitFor();
  expect(await bar.textContent()).toContain(`${customer.name} ${customer.last_name}`);
  await viewer.getByTestId('app-sidebar').waitFor();

  // 5. Come back: the window ends its session and closes; the admin's window is still the admin's.
  await Promise.all([viewer.waitForEvent('close'), bar.getByTestId('viewing-as-stop').click()]);
  await page.reload();
  await page.getByTestId('customer-page').waitFor();
  expect(await page.getByTestId('viewing-as-bar').count()).toBe(0);
  expect(await page.getByTestId('delete-customer').count()).toBe(1);

  // 6. /admin lists the gift (a purchase, marked Gift, total $0.00, no payment method) and its invoice.
  await page.goto('/admin');
  await page.getByTestId('admin-purchases-page').waitFor();
  await page.getByLabel(p.filters.search).fill(customer.email);
  await expect.poll(() => page.getByTestId('record-row').count()).toBe(2);
  const giftRow = page.getByTestId('record-row').filter({ has: page.getByText(`#${giftId}`, { exact: true }) }).filter({ hasText: p.kind.purchase });
  expect(await giftRow.count()).toBe(1);
  const giftCells = await giftRow.locator('td').allTextContents();
  expect(giftCells[0]).toContain(`${p.kind.purchase} · ${p.gift}`);
  expect(giftCells[3]).toBe(product.name);
  expect(giftCells[5]).toBe('$0.00');
  expect(giftCells[7]).toBe('');
  const invoiceRow = page.getByTestId('record-row').filter({ has: page.getByText(`#${invoiceId}`, { exact: true }) }).filter({ hasText: p.kind.invoice });
  expect(await invoiceRow.count()).toBe(1);
  expect(await invoiceRow.textContent()).toContain(product.name);
}

describe('back office: customers', () => {
  for (const lang of ['en', 'es'] as const) {
    test(`${lang.toUpperCase()}: find a customer on /admin/users, give access as a gift, add its invoice, log in as the user in a new window and come back; the gift shows in /admin`, async ({ openPage }) => {
      const page = await openPage({ locale: ui[lang].locale });
      await journey(page, lang);
    });
  }
});
