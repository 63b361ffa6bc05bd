// Back-office customers journey (issue 11 "Acceptance", item 2; spec part 1 §2 /admin/users and the customer
// detail, §4 give access), in English and Spanish: the admin finds a new customer on /admin/users by email
// (debounced search), opens the detail, gives access to a product as a gift (the total becomes 0 and the
// payment method goes away), sees the purchase listed, adds an invoice for it on the customer's page, logs
// in as the user in a new window — which shows the "Viewing as" bar and the customer's own shell — and
// comes back with "Stop viewing", the admin's own session untouched in the first window; then /admin (the
// purchases and invoices list) shows the gift (total $0.00) and its invoice for that customer. Then the
// layout of those screens (issue 28, item 5) with more purchases for the customer (an active subscription,
// pending, revoked, cancelled): /admin's table, the customer's page, /admin/staff and — logged in as the
// customer — the "Viewing as" bar and /billing, at 1280 and 390 px: no badge, date or button cut off, the
// bar over nothing; screenshots under e2e/artifacts/layout/. Add staff fills the picked customer's email.
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, inject } from 'vitest';
import adminPurchasesEn from '../web/src/i18n/admin-purchases.en.json';
import adminPurchasesEs from '../web/src/i18n/admin-purchases.es.json';
import adminStaffEn from '../web/src/i18n/admin-staff.en.json';
import adminStaffEs from '../web/src/i18n/admin-staff.es.json';
import adminUsersEn from '../web/src/i18n/admin-users.en.json';
import adminUsersEs from '../web/src/i18n/admin-users.es.json';
import billingEn from '../web/src/i18n/billing.en.json';
import billingEs from '../web/src/i18n/billing.es.json';
import { adminSessionToken, apiRequest } from './src/api';
import { expect, test } from './src/fixtures';
import { label, newcomer, signIn, signUpViaApi, type UiLang } from './src/journey-steps';
import { atWidth, clippedInTable, layoutScreenshot, LAYOUT_WIDTHS, overlaps, type LayoutWidth } from './src/layout';

const ui = {
  en: { t: adminUsersEn, purchases: adminPurchasesEn, billing: billingEn, staff: adminStaffEn, locale: 'en-US' },
  es: { t: adminUsersEs, purchases: adminPurchasesEs, billing: billingEs, staff: adminStaffEs, locale: 'es-ES' },
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
  const customerId = Number(new URL(page.url()).pathname.split('/').pop());
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
  // Payment method (the discount code goes under the total).
  expect(giftCells[6]).toBe('');
  const invoiceRow = page.getByTestId('record-row').filter({ has: page.getByText(`#${invoiceId}`, { exact: true }) }).filter({ hasText: p.kind.invoice });
  expect(await invoiceRow.count()).toBe(1);
  expect(await invoiceRow.textContent()).toContain(product.name);

  await layoutChecks(page, lang, { customerId, email: customer.email, password: customer.password, productId: product.product_id, name: `${customer.name} ${customer.last_name}` });
}

const widths = Object.keys(LAYOUT_WIDTHS) as LayoutWidth[];

/** Fails with what is cut off in the table, naming the screen, the width and the language. */
async function expectWhole(table: Locator, where: string) {
  expect(await clippedInTable(table), where).toEqual([]);
}

/** Steps 7–11: the screens' layout at 1280 and 390 px, and the staff picker (issue 28, item 5). */
async function layoutChecks(page: Page, lang: UiLang, who: { customerId: number; email: string; password: string; productId: number; name: string }) {
  const { t, purchases: p, billing: b, staff: s } = ui[lang];
  const admin = await adminSessionToken();
  // The customer's own screens (seen by logging in as them) in this language too.
  const { token } = await apiRequest<{ token: string }>('POST', '/auth/login', { body: { email: who.email, password: who.password } });
  await apiRequest('PUT', '/users', { token, body: { lang } });
  // 7. More purchases, by the admin: an active monthly subscription (Cancel subscription on /admin and on
  // /billing), and pending, revoked and cancelled ones of the plan.
  const monthly = await apiRequest<{ product_id: number; name: string }>('POST', '/products', {
    token: admin,
    body: { name: `Monthly writing plan ${lang} ${Date.now().toString(36)}`, description: 'A subscription for the layout checks.', price: 29, word_amount: 5000, is_subscription: true, subscription_period: 'month', subscription_interval: 1, available: true },
  });
  const give = (body: Record<string, unknown>) => apiRequest('POST', '/purchases/admin', { token: admin, body: { user_id: who.customerId, payment_method_id: 1, ...body } });
  await give({ product_id: monthly.product_id, status: 'active' });
  await give({ product_id: who.productId, status: 'pending' });
  await give({ product_id: who.productId, status: 'revoked' });
  await give({ product_id: who.productId, status: 'cancelled', cancel_reason: 'The customer asked by phone to stop.' });

  // 8. /admin: the customer's six records (gift, its invoice, four more) at each width.
  await page.goto('/admin');
  await page.getByTestId('admin-purchases-page').waitFor();
  await page.getByLabel(p.filters.search).fill(who.email);
  await expect.poll(() => page.getByTestId('record-row').count()).toBe(6);
  await page.getByRole('button', { name: new RegExp(`^${p.actions.cancelSubscriptionOf.replace('{{id}}', '\\d+')}$`) }).waitFor();
  for (const width of widths) {
    await atWidth(page, width);
    await expectWhole(page.getByTestId('records-table'), `/admin at ${width} (${lang})`);
    await expectWhole(page.getByTestId('record-filters'), `/admin's tabs at ${width} (${lang})`);
    await layoutScreenshot(page, `admin-purchases-${lang}-${width}`);
  }

  // 9. The customer's page: the revoked purchase gives no access (no "Access until" date); its tables whole.
  await page.goto(`/admin/users/${who.customerId}`);
  await page.getByTestId('customer-page').waitFor();
  await expect.poll(() => page.getByTestId('customer-purchase').count()).toBe(5);
  const revoked = page.getByTestId('customer-purchase').filter({ hasText: p.statuses.revoked });
  expect(await revoked.getByTestId('purchase-expires').textContent()).toBe(t.detail.noAccess);
  for (const width of widths) {
    await atWidth(page, width);
    await expectWhole(page.getByTestId('customer-purchases'), `customer page's purchases at ${width} (${lang})`);
    await expectWhole(page.getByTestId('customer-invoices'), `customer page's invoices at ${width} (${lang})`);
    await layoutScreenshot(page, `customer-${lang}-${width}`);
  }
  await atWidth(page, 'desktop');

  // 10. Logged in as the customer: the bar sits above the page, over neither the sidebar (1280) nor the
  // phone header (390), and /billing's tables are whole at both widths.
  const [viewer] = await Promise.all([page.context().waitForEvent('page'), page.getByTestId('login-as').click()]);
  const bar = viewer.getByTestId('viewing-as-bar');
  await bar.waitFor();
  await viewer.goto('/billing');
  await viewer.getByTestId('billing-page').waitFor();
  await expect.poll(() => viewer.getByTestId('purchase-row').count()).toBe(5);
  await viewer.getByRole('button', { name: b.cancel.buttonLabel.replace('{{product}}', monthly.name) }).waitFor();
  // Every purchase says what access it gives; the revoked one, none.
  for (const cell of await viewer.getByTestId('access-until').all()) expect((await cell.textContent())?.trim()).not.toBe('');
  const revokedRow = viewer.getByTestId('purchase-row').filter({ has: viewer.getByTestId('status-badge').filter({ hasText: b.statuses.revoked }) });
  expect(await revokedRow.getByTestId('access-until').textContent()).toBe(b.purchases.accessNone);
  for (const width of widths) {
    await atWidth(viewer, width);
    await viewer.evaluate(() => window.scrollTo(0, 0));
    const heading = viewer.getByRole('heading', { level: 1 });
    expect(await overlaps(bar, heading), `the bar over the title at ${width} (${lang})`).toBe(false);
    if (width === 'desktop') expect(await overlaps(bar, viewer.getByTestId('app-sidebar')), `the bar over the sidebar (${lang})`).toBe(false);
    else expect(await overlaps(bar, viewer.locator('.mantine-AppShell-header')), `the bar over the phone header (${lang})`).toBe(false);
    // The shell tells full-height screens (the chat) how much room the bar takes.
    const barHeight = Math.round((await bar.boundingBox())!.height);
    await expect.poll(() => viewer.evaluate(() => getComputedStyle(document.querySelector('.mantine-AppShell-main')!).getPropertyValue('--pluma-banner-height'))).toBe(`${barHeight}px`);
    // Nothing on the page is wider than the screen.
    expect(await viewer.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), `/billing scrolls sideways at ${width} (${lang})`).toBe(true);
    await expectWhole(viewer.getByTestId('purchases-table'), `/billing purchases at ${width} (${lang})`);
    await expectWhole(viewer.getByTestId('invoices-table'), `/billing invoices at ${width} (${lang})`);
    await layoutScreenshot(viewer, `billing-${lang}-${width}`);
    await layoutScreenshot(viewer, `billing-${lang}-${width}-screen`, { fullPage: false });
  }
  expect(await bar.textContent()).toContain(who.name);
  await Promise.all([viewer.waitForEvent('close'), bar.getByTestId('viewing-as-stop').click()]);

  // 11. Staff: the table whole at both widths; Add staff → the customer picked from the suggestions fills
  // the field with their email alone, and Add is enabled (closed without adding).
  await page.goto('/admin/staff');
  await page.getByTestId('staff-row').first().waitFor();
  for (const width of widths) {
    await atWidth(page, width);
    await expectWhole(page.getByTestId('staff-table'), `/admin/staff at ${width} (${lang})`);
    await layoutScreenshot(page, `staff-${lang}-${width}`);
  }
  await atWidth(page, 'desktop');
  await page.getByTestId('add-staff').click();
  const addModal = page.getByTestId('add-staff-modal');
  const email = addModal.getByTestId('add-staff-email');
  await email.fill(who.email.slice(0, 12));
  await page.getByTestId('staff-candidate').filter({ hasText: who.email }).click();
  expect(await email.inputValue()).toBe(who.email);
  await expect.poll(() => addModal.getByRole('button', { name: s.add }).isEnabled()).toBe(true);
  await page.keyboard.press('Escape');
  await addModal.waitFor({ state: 'hidden' });
}

describe('back office: customers', () => {
  for (const lang of ['en', 'es'] as const) {
    test(`${lang.toUpperCase()}: find a customer on /admin/users, give access as a gift, add its invoice, log in as the user in a new window and come back; the gift shows in /admin`, async ({ openPage }) => {
      const page = await openPage({ locale: ui[lang].locale });
      await journey(page, lang);
    });
  }
});
