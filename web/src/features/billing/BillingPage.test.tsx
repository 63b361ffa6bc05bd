import type { OwnInvoiceRecord, OwnPurchaseRecord, PaymentSourceRecord } from '@pluma/common/checkout';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch, stubObjectUrls } from '../../test/render';
import billingEn from '../../i18n/billing.en.json';
import billingEs from '../../i18n/billing.es.json';
import BillingPage from './BillingPage';
import { PURCHASE_STATUSES, INVOICE_STATUSES, STATUS_FILTERS } from '@pluma/common/admin-purchases';
import { accessEnd, accessLine, canCancel, CANCEL_REFRESH_DELAY_MS, cancelReasonValid, cardExpiry, maskedCardNumber, statusBadge, type BillingPurchase } from './billing-view';

const DAY = 86_400_000;
const now = Date.now();
const iso = (offsetDays: number) => new Date(now + offsetDays * DAY).toISOString();

function purchase(overrides: Partial<OwnPurchaseRecord> = {}): OwnPurchaseRecord {
  return {
    purchase_id: 1,
    user_id: 7,
    product_id: 3,
    product: { name: 'Pro' },
    status: 'active',
    amount: 25,
    total_payment: 25,
    discount: null,
    expiration_days: 30,
    is_gift: false,
    payment_method_id: null,
    payment_processor_id: null,
    subscription_id: 'sub_123',
    subscription_interval: 1,
    subscription_period: 'month',
    free_trial_length: null,
    cancel_reason: null,
    cancelledAt: null,
    organization_id: null,
    createdAt: iso(-10),
    updatedAt: iso(-10),
    ...overrides,
  };
}

function invoice(overrides: Partial<OwnInvoiceRecord> = {}): OwnInvoiceRecord {
  return {
    invoice_id: 41,
    purchase_id: 1,
    user_id: 7,
    status: 'completed',
    amount: 25,
    total_payment: 19.5,
    payment_method_id: null,
    order_id: 'in_1',
    expiration_date: null,
    subscription_id: null,
    subscription_interval: null,
    subscription_period: null,
    free_trial_length: null,
    createdAt: iso(-10),
    updatedAt: iso(-10),
    ...overrides,
  };
}

const oneTime = purchase({ purchase_id: 2, product: { name: 'Word pack' }, status: 'completed', subscription_id: null, subscription_period: null, subscription_interval: null, total_payment: 9.99, discount: { code: 'SPRING' } });
const cancelledSub = purchase({ purchase_id: 3, product: { name: 'Team' }, status: 'cancelled', cancel_reason: 'Too expensive for now', cancelledAt: iso(-1) });

function renderBilling(routes: Parameters<typeof stubFetch>[0]) {
  // Saved cards: none unless a test says otherwise.
  const api = stubFetch({ 'GET /api/payment_sources': () => ({ body: [] }), ...routes });
  const session = fakeSession(buildUser());
  renderScreen(
    <Suspense fallback={null}>
      <BillingPage />
    </Suspense>,
    { session, route: '/billing' },
  );
  return { ...api, session };
}

const gets = (calls: { method: string; url: string }[], path: string) => calls.filter((c) => c.method === 'GET' && c.url.split('?')[0] === path).length;

beforeEach(() => {
  stubObjectUrls(() => 'blob:receipt');
  // jsdom cannot follow a download link.
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('billing rules', () => {
  it('only an active subscription can be cancelled', () => {
    expect(canCancel(purchase())).toBe(true);
    expect(canCancel(oneTime)).toBe(false);
    expect(canCancel(cancelledSub)).toBe(false);
    expect(canCancel(purchase({ subscription_id: null, subscription_period: 'month' }))).toBe(true);
  });
  it('a reason needs 10 characters, spaces around it not counted', () => {
    expect(cancelReasonValid('too dear')).toBe(false);
    expect(cancelReasonValid('    too dear    ')).toBe(false);
    expect(cancelReasonValid('Too expensive')).toBe(true);
  });
  it('a cancelled subscription keeps access until its expiry (common rule); statuses have badges', () => {
    expect(accessEnd(cancelledSub)?.toISOString()).toBe(new Date(Date.parse(cancelledSub.createdAt) + 30 * DAY).toISOString());
    expect(accessEnd(purchase({ status: 'revoked' }))).toBeNull();
    expect(statusBadge('cancelled')).toMatchObject({ color: 'gray' });
    expect(statusBadge('weird')).toBeNull();
    expect(CANCEL_REFRESH_DELAY_MS).toBe(1500);
  });
});

/** The text at a dotted key of a namespace's JSON (undefined when missing). */
const lookUp = (texts: object, key: string): unknown => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], texts);

describe('billing statuses and access', () => {
  // Every status a purchase or invoice can have, with the purchase lifecycle's failed and expired.
  const statuses = [...new Set([...PURCHASE_STATUSES, ...INVOICE_STATUSES, ...Object.values(STATUS_FILTERS).flat(), 'failed', 'expired'])];

  it('every status has a badge worded in English and Spanish', () => {
    for (const status of statuses) {
      const badge = statusBadge(status);
      expect(badge, status).not.toBeNull();
      for (const [lng, texts] of Object.entries({ en: billingEn, es: billingEs })) expect(lookUp(texts, badge!.labelKey), `${status} (${lng})`).toMatch(/\S/);
    }
    expect(statusBadge('failed')).toMatchObject({ color: 'red' });
    expect(statusBadge('expired')).toMatchObject({ color: 'gray' });
  });

  it('says what access each purchase gives: never an "Access until" for one that gives none', () => {
    const at = new Date(now);
    expect(accessLine(purchase(), at)).toEqual({ key: 'purchases.accessRenews', date: null });
    expect(accessLine(oneTime, at).key).toBe('purchases.accessUntil');
    expect(accessLine(cancelledSub, at).key).toBe('purchases.accessUntil');
    expect(accessLine(purchase({ status: 'completed', subscription_id: null, subscription_period: null, createdAt: iso(-40) }), at).key).toBe('purchases.accessEnded');
    expect(accessLine(purchase({ status: 'pending' }), at)).toEqual({ key: 'purchases.accessPending', date: null });
    for (const status of ['revoked', 'failed', 'expired']) expect(accessLine(purchase({ status }), at), status).toEqual({ key: 'purchases.accessNone', date: null });
    // Ended by its provider (cancelled without a reason): none either.
    expect(accessLine(purchase({ status: 'cancelled', cancel_reason: null }), at).key).toBe('purchases.accessNone');
  });

  it('fills the Access column for every purchase; a revoked one says it gives none (English and Spanish)', async () => {
    const revoked = purchase({ purchase_id: 4, product: { name: 'Revoked plan' }, status: 'revoked', subscription_id: null, subscription_period: null, expiration_days: 30 });
    renderBilling({ 'GET /api/purchases': () => ({ body: [purchase(), oneTime, revoked] }), 'GET /api/invoices/': () => ({ body: [] }) });
    const rows = await screen.findAllByTestId('purchase-row');
    const access = rows.map((row) => within(row).getByTestId('access-until'));
    expect(access[0]).toHaveTextContent('Renews automatically');
    expect(access[1]).toHaveTextContent(/^Access until \w{3} \d{1,2}, \d{4}$/);
    expect(access[2]).toHaveTextContent('No access');
    expect(rows[2]).not.toHaveTextContent('Access until');
    await act(() => setLanguage('es'));
    await waitFor(() => expect(within(rows[2]).getByTestId('access-until')).toHaveTextContent('Sin acceso'));
    expect(rows[2]).not.toHaveTextContent('Acceso hasta');
    expect(rows[0]).toHaveTextContent('Se renueva automáticamente');
  });

  it('lists failed payments apart, each with its reason and a way to try again (English and Spanish)', async () => {
    const failed: BillingPurchase = { ...purchase({ purchase_id: 8, product: { name: 'Starter' }, product_id: 1, status: 'failed', subscription_id: null }), failure_reason: 'card_declined' };
    const noReason: BillingPurchase = purchase({ purchase_id: 9, product: { name: 'Team' }, status: 'failed', subscription_id: null });
    const overLimit: BillingPurchase = { ...purchase({ purchase_id: 10, product: { name: 'Once' }, status: 'failed', subscription_id: null }), failure_reason: 'over_limit' };
    renderBilling({ 'GET /api/purchases': () => ({ body: [purchase(), failed, noReason, overLimit] }), 'GET /api/invoices/': () => ({ body: [] }) });
    const section = await screen.findByTestId('failed-payments');
    // Only the good purchase is in the purchases table.
    expect(screen.getAllByTestId('purchase-row')).toHaveLength(1);
    const rows = within(section).getAllByTestId('failed-row');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]).getByTestId('status-badge')).toHaveTextContent('Failed');
    // A provider's decline code is worded, with the code; our own reasons have their own text.
    expect(within(rows[0]).getByTestId('failure-reason')).toHaveTextContent('The payment was declined (card_declined). Please try another payment method.');
    expect(within(rows[2]).getByTestId('failure-reason')).toHaveTextContent('This product reached its purchase limit before your payment arrived. Your payment has been refunded.');
    expect(within(rows[0]).getByRole('link', { name: 'Try again: pay for Starter' })).toHaveAttribute('href', '/checkout/1');
    expect(within(rows[1]).getByTestId('failure-reason')).toHaveTextContent('The payment provider gave no reason.');
    expect(section).not.toHaveTextContent('Access until');
    await act(() => setLanguage('es'));
    await waitFor(() => expect(section).toHaveTextContent('Pagos que no se completaron'));
    expect(within(rows[0]).getByTestId('status-badge')).toHaveTextContent('Fallida');
    expect(within(rows[0]).getByTestId('failure-reason')).toHaveTextContent('El pago fue rechazado (card_declined).');
    expect(within(rows[2]).getByTestId('failure-reason')).toHaveTextContent('Tu pago ha sido reembolsado.');
  });
});

describe('Billing page', () => {
  it('lists own purchases and invoices with badges, dates, totals and the right actions', async () => {
    renderBilling({
      'GET /api/purchases': () => ({ body: [purchase(), oneTime, cancelledSub] }),
      'GET /api/invoices/': () => ({ body: [invoice(), invoice({ invoice_id: 40, status: 'failed', total_payment: 25 })] }),
    });
    const rows = await screen.findAllByTestId('purchase-row');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('Pro');
    expect(rows[0]).toHaveTextContent('Subscription');
    expect(rows[0]).toHaveTextContent('Active');
    expect(rows[0]).toHaveTextContent('$25.00');
    expect(within(rows[0]).getByRole('button', { name: 'Cancel subscription Pro' })).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Word pack');
    expect(rows[1]).toHaveTextContent('One-time · Code SPRING');
    expect(rows[1]).toHaveTextContent('Completed');
    expect(within(rows[1]).queryByRole('button')).toBeNull();
    expect(rows[2]).toHaveTextContent('Cancelled');
    expect(within(rows[2]).getByTestId('access-until')).toHaveTextContent(/^Access until \w{3} \d{1,2}, \d{4}$/);
    expect(within(rows[2]).queryByRole('button')).toBeNull();

    const invoices = await screen.findAllByTestId('invoice-row');
    expect(invoices).toHaveLength(2);
    expect(invoices[0]).toHaveTextContent('#41');
    expect(invoices[0]).toHaveTextContent('$19.50');
    expect(invoices[0]).toHaveTextContent('Completed');
    expect(invoices[1]).toHaveTextContent('Failed');
    expect(within(invoices[0]).getByRole('button', { name: 'Download PDF of invoice 41' })).toBeInTheDocument();
  });

  it('shows empty states, in English and Spanish', async () => {
    renderBilling({ 'GET /api/purchases': () => ({ body: [] }), 'GET /api/invoices/': () => ({ body: [] }) });
    expect(await screen.findByTestId('purchases-empty')).toHaveTextContent('You have no purchases yet.');
    expect(screen.getByTestId('invoices-empty')).toHaveTextContent('You have no invoices yet.');
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/pricing');
    await act(() => setLanguage('es'));
    expect(await screen.findByText('Aún no tienes compras.')).toBeInTheDocument();
    expect(screen.getByText('Aún no tienes facturas.')).toBeInTheDocument();
  });

  it('refuses a short reason with the spec message, in English and Spanish, without calling the server', async () => {
    const { calls } = renderBilling({ 'GET /api/purchases': () => ({ body: [purchase()] }), 'GET /api/invoices/': () => ({ body: [] }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel subscription Pro' }));
    const modal = await screen.findByTestId('cancel-subscription-modal');
    expect(await within(modal).findByTestId('cancel-warning')).toHaveTextContent(
      'Your benefits will last until the next invoice date. No further charges will be made, and this cannot be undone.',
    );
    fireEvent.change(await within(modal).findByRole('textbox'), { target: { value: '  too dear  ' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Cancel subscription' }));
    expect(await within(modal).findByText('You must include a cancel reason.')).toBeInTheDocument();
    await act(() => setLanguage('es'));
    expect(await within(modal).findByText('Debes incluir un motivo de cancelación.')).toBeInTheDocument();
    expect(within(modal).getByTestId('cancel-warning')).toHaveTextContent('Tus beneficios durarán hasta la próxima fecha de facturación.');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('cancels, then refreshes the lists at once and again after 1.5 seconds', async () => {
    let cancelled = false;
    const fetchedAt: number[] = [];
    const { calls, session } = renderBilling({
      'GET /api/purchases': () => {
        fetchedAt.push(Date.now());
        return { body: [cancelled ? { ...purchase(), status: 'cancelled', cancel_reason: 'Moving to another tool' } : purchase()] };
      },
      'GET /api/invoices/': () => ({ body: [] }),
      'POST /api/purchases/cancel/1': () => {
        cancelled = true;
        return { body: { ...purchase(), status: 'cancelled', cancel_reason: 'Moving to another tool' } };
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel subscription Pro' }));
    const modal = await screen.findByTestId('cancel-subscription-modal');
    fireEvent.change(await within(modal).findByRole('textbox'), { target: { value: '  Moving to another tool ' } });
    const before = gets(calls, '/api/purchases');
    fireEvent.click(within(modal).getByRole('button', { name: 'Cancel subscription' }));

    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ cancel_reason: 'Moving to another tool', status: 'cancelled' });
    await waitFor(() => expect(gets(calls, '/api/purchases')).toBe(before + 1));
    expect(await screen.findByTestId('access-until')).toHaveTextContent('Access until');
    expect(screen.queryByRole('button', { name: 'Cancel subscription Pro' })).toBeNull();
    expect(session.reloadUser).toHaveBeenCalled();
    // And once more CANCEL_REFRESH_DELAY_MS after the first refresh (timed by the calls themselves, so a slow
    // render does not matter).
    await waitFor(() => expect(gets(calls, '/api/purchases')).toBe(before + 2), { timeout: CANCEL_REFRESH_DELAY_MS * 3 });
    const [first, second] = fetchedAt.slice(-2);
    expect(second - first).toBeGreaterThanOrEqual(CANCEL_REFRESH_DELAY_MS - 20);
    await new Promise((resolve) => setTimeout(resolve, CANCEL_REFRESH_DELAY_MS));
    expect(gets(calls, '/api/purchases')).toBe(before + 2);
  });

  it("shows the server's refusal translated into the current language", async () => {
    renderBilling({
      'GET /api/purchases': () => ({ body: [purchase()] }),
      'GET /api/invoices/': () => ({ body: [] }),
      'POST /api/purchases/cancel/1': () => ({ status: 409, body: { error: 'purchase_not_cancellable', message: 'Only an active subscription can be cancelled.' } }),
    });
    await act(() => setLanguage('es'));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancelar la suscripción Pro' }));
    const modal = await screen.findByTestId('cancel-subscription-modal');
    fireEvent.change(await within(modal).findByRole('textbox'), { target: { value: 'Ya no lo necesito' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Cancelar suscripción' }));
    expect(await within(modal).findByTestId('cancel-error')).toHaveTextContent('Solo se puede cancelar una suscripción activa.');
    await act(() => setLanguage('en'));
    expect(await within(modal).findByText('Only an active subscription can be cancelled.')).toBeInTheDocument();
  });

  it("puts a 400's reason message under the field", async () => {
    renderBilling({
      'GET /api/purchases': () => ({ body: [purchase()] }),
      'GET /api/invoices/': () => ({ body: [] }),
      'POST /api/purchases/cancel/1': () => ({
        status: 400,
        body: { error: 'validation_error', message: 'You must include a cancel reason.', details: { cancel_reason: 'You must include a cancel reason.' } },
      }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel subscription Pro' }));
    const modal = await screen.findByTestId('cancel-subscription-modal');
    fireEvent.change(await within(modal).findByRole('textbox'), { target: { value: 'Long enough reason' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Cancel subscription' }));
    expect(await within(modal).findByText('You must include a cancel reason.')).toBeInTheDocument();
    expect(within(modal).queryByTestId('cancel-error')).toBeNull();
  });

  it('downloads an invoice PDF, and says so when it fails', async () => {
    let fail = false;
    const { calls } = renderBilling({
      'GET /api/purchases': () => ({ body: [] }),
      'GET /api/invoices/': () => ({ body: [invoice()] }),
      'GET /api/invoices/41/pdf': () => (fail ? { status: 404, body: { error: 'not_found', message: 'Not found.' } } : { body: '%PDF-1.3' }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Download PDF of invoice 41' }));
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());
    expect(gets(calls, '/api/invoices/41/pdf')).toBe(1);
    fail = true;
    fireEvent.click(screen.getByRole('button', { name: 'Download PDF of invoice 41' }));
    expect(await screen.findByTestId('app-error')).toBeInTheDocument();
  });

  it('shows a load error with a retry', async () => {
    renderBilling({ 'GET /api/purchases': () => ({ status: 500, body: { error: 'internal', message: 'Boom' } }), 'GET /api/invoices/': () => ({ body: [] }) });
    expect(await screen.findByText('We could not load your billing information.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

const visa: PaymentSourceRecord = { payment_source_id: 'pm_visa1', card_type: 'visa', last_digits: '4242', exp_month: 4, exp_year: 2031 };
const master: PaymentSourceRecord = { payment_source_id: 'pm_master1', card_type: 'mastercard', last_digits: '4444', exp_month: 12, exp_year: 2034 };
const amex: PaymentSourceRecord = { payment_source_id: 'pm_amex1', card_type: 'other', last_digits: '0005', exp_month: null, exp_year: null };
const noBills = { 'GET /api/purchases': () => ({ body: [] }), 'GET /api/invoices/': () => ({ body: [] }) };

async function openRemoval(name: string) {
  fireEvent.click(await screen.findByRole('button', { name }));
  const modal = await screen.findByTestId('remove-card-modal');
  await within(modal).findByTestId('remove-card-question');
  return modal;
}

describe('saved cards', () => {
  it('masks the number and words the expiry', () => {
    expect(maskedCardNumber('4242')).toBe('•••• 4242');
    expect(cardExpiry(visa)).toBe('04/31');
    expect(cardExpiry(amex)).toBeNull();
  });

  it('lists each card with its brand, last digits and expiry, in English and Spanish', async () => {
    renderBilling({ ...noBills, 'GET /api/payment_sources': () => ({ body: [visa, master, amex] }) });
    const cards = await screen.findAllByTestId('saved-card');
    expect(cards).toHaveLength(3);
    expect(cards[0]).toHaveTextContent('Visa •••• 4242');
    expect(cards[0]).toHaveTextContent('Expires 04/31');
    expect(cards[1]).toHaveTextContent('Mastercard •••• 4444');
    expect(cards[2]).toHaveTextContent('Card •••• 0005');
    expect(cards[2]).not.toHaveTextContent('Expires');
    expect(within(cards[0]).getByRole('button', { name: 'Remove Visa ending in 4242' })).toBeInTheDocument();
    await act(() => setLanguage('es'));
    expect(await screen.findByRole('button', { name: 'Eliminar Visa terminada en 4242' })).toBeInTheDocument();
    expect(screen.getAllByTestId('saved-card')[2]).toHaveTextContent('Tarjeta •••• 0005');
    expect(screen.getAllByTestId('saved-card')[0]).toHaveTextContent('Vence 04/31');
    expect(within(screen.getByTestId('saved-cards-section')).getByRole('heading')).toHaveTextContent('Tarjetas guardadas');
  });

  it('shows a skeleton until the cards come, then the empty text in both languages', async () => {
    let answer: (() => void) | null = null;
    const gate = new Promise<void>((resolve) => (answer = resolve));
    const { fetchMock } = renderBilling(noBills);
    const original = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).includes('/payment_sources')) await gate;
      return original(input, init);
    });
    expect(await screen.findByTestId('saved-cards-loading')).toBeInTheDocument();
    answer!();
    expect(await screen.findByTestId('saved-cards-empty')).toHaveTextContent('You have no saved cards.');
    await act(() => setLanguage('es'));
    expect(await screen.findByText(/^No tienes tarjetas guardadas\./)).toBeInTheDocument();
  });

  it('removes a card after confirming, announces it and reloads the list', async () => {
    let cards = [visa, master];
    const { calls } = renderBilling({
      ...noBills,
      'GET /api/payment_sources': () => ({ body: cards }),
      'DELETE /api/payment_sources/pm_visa1': () => {
        cards = [master];
        return { status: 204 };
      },
    });
    const modal = await openRemoval('Remove Visa ending in 4242');
    expect(within(modal).getByTestId('remove-card-question')).toHaveTextContent('Remove the Visa card ending in 4242? It will no longer be offered when you pay.');
    expect(modal).toHaveTextContent('cannot be removed until that subscription is cancelled');
    const before = gets(calls, '/api/payment_sources');
    fireEvent.click(within(modal).getByRole('button', { name: 'Remove card' }));
    expect(await screen.findByText('Card removed.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('saved-card')).toHaveLength(1));
    expect(gets(calls, '/api/payment_sources')).toBe(before + 1);
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/payment_sources/pm_visa1']);
    await waitFor(() => expect(screen.queryByTestId('remove-card-question')).toBeNull());
  });

  it('keeps the card when the customer changes their mind', async () => {
    const { calls } = renderBilling({ ...noBills, 'GET /api/payment_sources': () => ({ body: [visa] }) });
    const modal = await openRemoval('Remove Visa ending in 4242');
    fireEvent.click(within(modal).getByRole('button', { name: 'Keep card' }));
    await waitFor(() => expect(screen.queryByTestId('remove-card-question')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    expect(screen.getAllByTestId('saved-card')).toHaveLength(1);
  });

  it("shows the server's refusal of a card that pays a subscription, re-worded when the language changes", async () => {
    renderBilling({
      ...noBills,
      'GET /api/payment_sources': () => ({ body: [visa] }),
      'DELETE /api/payment_sources/pm_visa1': () => ({
        status: 409,
        body: { error: 'payment_source_in_use', message: 'This card pays for your subscription, so it cannot be removed. Cancel the subscription first, or remove the card once it has ended.' },
      }),
    });
    const modal = await openRemoval('Remove Visa ending in 4242');
    fireEvent.click(within(modal).getByRole('button', { name: 'Remove card' }));
    expect(await within(modal).findByTestId('remove-card-error')).toHaveTextContent('This card pays for your subscription, so it cannot be removed.');
    await act(() => setLanguage('es'));
    expect(await within(modal).findByText(/^Esta tarjeta paga tu suscripción, así que no se puede eliminar\./)).toBeInTheDocument();
    expect(screen.getAllByTestId('saved-card')).toHaveLength(1);
    expect(screen.queryByText('Tarjeta eliminada.')).toBeNull();
  });

  it("gives the spec's text when removing fails, with or without an answer, in English and Spanish", async () => {
    let reachable = true;
    const { fetchMock } = renderBilling({
      ...noBills,
      'GET /api/payment_sources': () => ({ body: [visa] }),
      'DELETE /api/payment_sources/pm_visa1': () => ({
        status: 502,
        body: { error: 'payment_source_delete_failed', message: 'No pudimos eliminar esta tarjeta. Inténtalo de nuevo más tarde.' },
      }),
    });
    const original = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (!reachable && init?.method === 'DELETE') throw new TypeError('Failed to fetch');
      return original(input, init);
    });
    const modal = await openRemoval('Remove Visa ending in 4242');
    fireEvent.click(within(modal).getByRole('button', { name: 'Remove card' }));
    expect(await within(modal).findByTestId('remove-card-error')).toHaveTextContent('We could not remove this card. Please try again later.');
    reachable = false;
    await act(() => setLanguage('es'));
    fireEvent.click(within(modal).getByRole('button', { name: 'Eliminar tarjeta' }));
    // The first answer's error (re-worded in Spanish) goes while the client retries, then this one's comes.
    await waitFor(() => expect(within(modal).queryByTestId('remove-card-error')).toBeNull());
    await waitFor(() => expect(within(modal).getByTestId('remove-card-error')).toHaveTextContent('No pudimos eliminar esta tarjeta. Inténtalo de nuevo más tarde.'), { timeout: 15_000 });
  }, 30_000);

  it('shows a load error with a retry when the cards cannot be read', async () => {
    let fail = true;
    renderBilling({ ...noBills, 'GET /api/payment_sources': () => (fail ? { status: 502, body: { error: 'payments_provider_error', message: 'Boom' } } : { body: [visa] }) });
    expect(await screen.findByText('We could not load your saved cards.')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Remove Visa ending in 4242' })).toBeInTheDocument();
  });

  it('works from the keyboard: Tab reaches Remove, Enter opens the confirmation, Escape keeps the card', async () => {
    const user = userEvent.setup();
    const { calls } = renderBilling({ ...noBills, 'GET /api/payment_sources': () => ({ body: [visa] }) });
    const button = await screen.findByRole('button', { name: 'Remove Visa ending in 4242' });
    while (document.activeElement !== button) await user.tab();
    await user.keyboard('{Enter}');
    const modal = await screen.findByTestId('remove-card-modal');
    await within(modal).findByTestId('remove-card-question');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('remove-card-question')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
  });
});
