// Back-office journey (issue 11 "Acceptance", items 1 and 6; spec part 1 §2 /admin and
// /admin/analytics/*, §4), in English and Spanish: a customer bought a plan (given by the admin through
// the API, with its invoice); the admin finds the purchase on /admin by the customer's email, edits it to
// cancelled with a reason (after the warning), sees it cancelled in the table, adds an invoice for it with
// "New invoice" and sees it listed under Invoices, then opens the income and products analytics and sees
// their figures and donut charts drawn with that data.
import type { Page } from 'playwright-core';
import { afterAll, describe, inject } from 'vitest';
import adminPurchasesEn from '../web/src/i18n/admin-purchases.en.json';
import adminPurchasesEs from '../web/src/i18n/admin-purchases.es.json';
import analyticsEn from '../web/src/i18n/analytics.en.json';
import analyticsEs from '../web/src/i18n/analytics.es.json';
import { seriousA11yViolations } from './src/a11y';
import { adminSessionToken, apiRequest } from './src/api';
import { expect, test } from './src/fixtures';
import { label, newcomer, signIn, signUpViaApi, type UiLang } from './src/journey-steps';

const ui = {
  en: { admin: adminPurchasesEn, analytics: analyticsEn, locale: 'en-US' },
  es: { admin: adminPurchasesEs, analytics: analyticsEs, locale: 'es-ES' },
} as const;

/** A customer with a paid purchase of a fresh product and its invoice, made by the admin through the API. */
async function customerWithPurchase(lang: UiLang) {
  const admin = await adminSessionToken();
  const customer = newcomer(`backoffice-${lang}`);
  await signUpViaApi(customer);
  const { token } = await apiRequest<{ token: string }>('POST', '/auth/login', { body: { email: customer.email, password: customer.password } });
  const me = await apiRequest<{ user_id: number }>('GET', '/users', { token });
  const product = await apiRequest<{ product_id: number; name: string }>('POST', '/products', {
    token: admin,
    body: { name: `Backoffice plan ${lang} ${Date.now().toString(36)}`, description: 'A plan for the back-office journey.', price: 20, word_amount: 1000, expiration_days: 30, available: true },
  });
  const purchase = await apiRequest<{ purchase_id: number }>('POST', '/users/giveAccess', {
    token: admin,
    body: { user_id: me.user_id, product_id: product.product_id, gift: false, total: 20, payment_method_id: 1 },
  });
  await apiRequest('POST', '/invoices/admin', { token: admin, body: { purchase_id: purchase.purchase_id, status: 'completed', amount: 20, payment_method_id: 1, order_id: `journey-${lang}` } });
  return { customer, userId: me.user_id, product, purchase };
}

/** The admin's interface language follows the profile once signed in. */
async function adminLanguage(lang: UiLang) {
  await apiRequest('PUT', '/users', { token: await adminSessionToken(), body: { lang } });
}

afterAll(async () => {
  await adminLanguage('en');
});

/** axe on the page as it is now: every serious or critical finding fails the journey. */
async function checkA11y(page: Page, lang: UiLang, where: string) {
  const found: string[] = [];
  for (const violation of await seriousA11yViolations(page)) {
    for (const node of violation.nodes) found.push(`[${violation.impact}] ${violation.id} ${JSON.stringify(node.target)}: ${node.failureSummary?.split('\n').join(' ') ?? ''}`);
  }
  expect(found, `axe on ${where} (${lang})`).toEqual([]);
}

async function journey(page: Page, lang: UiLang) {
  const { admin: t, analytics: a } = ui[lang];
  const { customer, userId, product, purchase } = await customerWithPurchase(lang);
  await adminLanguage(lang);
  await signIn(page, lang, inject('adminEmail'), inject('adminPassword'));

  // 1. /admin: find the purchase by the customer's email (debounced search), purchases only.
  await page.goto('/admin');
  await page.getByTestId('admin-purchases-page').waitFor();
  await page.getByLabel(t.filters.search).fill(customer.email);
  await page.getByTestId('type-tabs').getByText(t.typeTabs.purchases, { exact: true }).click();
  // The customer has one purchase (the invoice is filtered out by the type tab).
  await expect.poll(() => page.getByTestId('record-row').count()).toBe(1);
  const row = page.getByTestId('record-row').filter({ has: page.getByText(`#${purchase.purchase_id}`, { exact: true }) });
  await row.waitFor();
  expect(await row.textContent()).toContain(product.name);
  await checkA11y(page, lang, '/admin');

  // 2. Edit it to cancelled: the warning shows, the reason is required, then it is saved.
  await row.getByRole('button', { name: t.actions.editPurchase.replace('{{id}}', String(purchase.purchase_id)) }).click();
  const modal = page.getByTestId('edit-purchase-modal');
  await modal.getByTestId('edit-status').click();
  await page.getByRole('option', { name: t.statuses.cancelled, exact: true }).click();
  await modal.getByTestId('cancel-warning').waitFor();
  expect(await modal.getByTestId('cancel-warning').textContent()).toBe(t.edit.warning);
  await modal.getByRole('button', { name: t.edit.save }).click();
  await modal.getByText(t.edit.reasonRequired).waitFor();
  await modal.getByLabel(label(t.edit.reason)).fill('The customer asked to stop by phone');
  await modal.getByRole('button', { name: t.edit.save }).click();
  await modal.waitFor({ state: 'detached' });
  await expect.poll(() => row.getByTestId('record-status').textContent()).toBe(t.statuses.cancelled);

  // 3. Add an invoice for that purchase with "New invoice"; the Invoices tab lists it beside the first one.
  await page.getByRole('button', { name: t.actions.newInvoice }).click();
  const invoice = page.getByTestId('invoice-modal');
  await invoice.getByTestId('invoice-status').click();
  await page.getByRole('option', { name: t.statuses.completed, exact: true }).click();
  await invoice.getByLabel(label(t.invoice.amount)).fill('35');
  await invoice.getByLabel(label(t.invoice.total)).fill('35');
  await invoice.getByLabel(label(t.invoice.purchaseId)).fill(String(purchase.purchase_id));
  await invoice.getByLabel(label(t.invoice.userId)).fill(String(userId));
  await invoice.getByLabel(label(t.invoice.orderId)).fill(`ui-invoice-${lang}`);
  await invoice.getByRole('button', { name: t.invoice.save }).click();
  await invoice.waitFor({ state: 'detached' });
  await page.getByText(t.invoice.saved).waitFor();
  await page.getByTestId('type-tabs').getByText(t.typeTabs.invoices, { exact: true }).click();
  await expect.poll(() => page.getByTestId('record-row').count()).toBe(2);
  const added = page.getByTestId('record-row').filter({ hasText: '$35.00' });
  expect(await added.count()).toBe(1);
  expect(await added.textContent()).toContain(t.kind.invoice);
  expect(await added.textContent()).toContain(product.name);
  expect(await added.getByTestId('record-status').textContent()).toBe(t.statuses.completed);

  // 4. Income analytics: the invoice's payment is counted, the table and the donut are drawn.
  await page.goto('/admin/analytics/income');
  await page.getByTestId('analytics-income').waitFor();
  await page.getByTestId('income-total').waitFor();
  expect(await page.getByText(a.income.total).count()).toBe(1);
  const total = Number((await page.getByTestId('income-total').textContent())!.replace(/[^\d.]/g, ''));
  expect(total).toBeGreaterThanOrEqual(20);
  await page.getByTestId('methods-table').waitFor();
  await expect.poll(() => page.getByTestId('income-donut').locator('svg path').count()).toBeGreaterThan(0);
  await checkA11y(page, lang, '/admin/analytics/income');

  // 5. Products analytics: the plan is listed with its purchase, and the income-share donut is drawn.
  await page.goto('/admin/analytics/products');
  const products = page.getByTestId('products-table');
  await products.waitFor();
  expect(await products.getByText(product.name).count()).toBe(1);
  expect(await page.getByText(a.products.chart).count()).toBeGreaterThan(0);
  await expect.poll(() => page.getByTestId('products-donut').locator('svg path').count()).toBeGreaterThan(0);
  await checkA11y(page, lang, '/admin/analytics/products');
}

describe('back office: purchases and analytics', () => {
  for (const lang of ['en', 'es'] as const) {
    test(`${lang.toUpperCase()}: find a purchase on /admin, edit it to cancelled with a reason, add an invoice; income and products analytics draw their charts`, async ({ openPage }) => {
      const page = await openPage({ locale: ui[lang].locale });
      await journey(page, lang);
    });
  }
});
