import { screen, waitFor } from '@testing-library/react';
import type { OwnPurchaseRecord } from '@pluma/common/checkout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import ThankYouPage from './ThankYouPage';

const purchase: OwnPurchaseRecord = {
  purchase_id: 31,
  user_id: 7,
  product_id: 2,
  product: { name: 'Pro' },
  status: 'pending',
  amount: 1234.5,
  total_payment: 1234.5,
  discount: null,
  expiration_days: null,
  is_gift: false,
  payment_method_id: 1,
  payment_processor_id: 'pi_31',
  subscription_id: null,
  subscription_interval: null,
  subscription_period: null,
  free_trial_length: null,
  cancel_reason: null,
  cancelledAt: null,
  organization_id: null,
  createdAt: new Date(2026, 2, 5, 14, 7).toISOString(),
  updatedAt: new Date(2026, 2, 5, 14, 7).toISOString(),
};

const open = (session = fakeSession(buildUser({ has_access: false }))) =>
  renderScreen(<ThankYouPage />, { route: '/thankyou/31', path: '/thankyou/:purchaseId', session });

beforeAll(async () => {
  await i18n.loadNamespaces('checkout');
});
afterAll(async () => {
  await setLanguage('en');
});

describe('Thank-you screen', () => {
  it('polls the purchase every 2 seconds until it turns active, then reloads the user', async () => {
    let answers = 0;
    const { calls } = stubFetch({
      'GET /api/purchases/31': () => {
        answers += 1;
        return { body: answers < 2 ? purchase : { ...purchase, status: 'active' } };
      },
    });
    const session = fakeSession(buildUser({ has_access: false }));
    open(session);
    expect(screen.getByTestId('page-loader')).toBeInTheDocument();
    const badge = await screen.findByTestId('purchase-status');
    expect(badge).toHaveTextContent('Processing');
    expect(screen.getByText('We are confirming your payment. This page updates by itself.')).toBeInTheDocument();
    expect(screen.getByTestId('order-number')).toHaveTextContent('#31');
    expect(screen.getByTestId('order-date')).toHaveTextContent('05 Mar 2026 14:07');
    expect(screen.getByTestId('order-total')).toHaveTextContent('$1,234.50 USD');
    await waitFor(() => expect(screen.getByTestId('purchase-status')).toHaveTextContent('Active'), { timeout: 4000 });
    expect(session.reloadUser).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('link', { name: 'OK' })).toHaveAttribute('href', '/');
    // Final: polling stops.
    const polled = calls.length;
    await new Promise((resolve) => setTimeout(resolve, 2300));
    expect(calls.length).toBe(polled);
  }, 10_000);

  it('shows a final purchase in Spanish without polling', async () => {
    await setLanguage('es');
    const { calls } = stubFetch({ 'GET /api/purchases/31': () => ({ body: { ...purchase, status: 'completed' } }) });
    open();
    expect(await screen.findByTestId('purchase-status')).toHaveTextContent('Completada');
    expect(screen.getByText('¡Gracias por tu compra!')).toBeInTheDocument();
    expect(screen.getByTestId('order-date')).toHaveTextContent('05 mar 2026 14:07');
    expect(screen.getByText('Número de pedido')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    await setLanguage('en');
  });

  it('says a failed payment was not completed', async () => {
    stubFetch({ 'GET /api/purchases/31': () => ({ body: { ...purchase, status: 'cancelled' } }) });
    open();
    expect(await screen.findByTestId('purchase-status')).toHaveTextContent('Cancelled');
    expect(screen.getByText('This purchase was not completed. You can try again from the plans page.')).toBeInTheDocument();
  });

  it('stops at a failure Stripe reported on its return_url', async () => {
    const { calls } = stubFetch({ 'GET /api/purchases/31': () => ({ body: purchase }) });
    renderScreen(<ThankYouPage />, { route: '/thankyou/31?payment_intent=pi_31&redirect_status=failed', path: '/thankyou/:purchaseId', session: fakeSession(buildUser()) });
    expect(await screen.findByTestId('purchase-status')).toHaveTextContent('Failed');
    expect(screen.getByText('This purchase was not completed. You can try again from the plans page.')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 2300));
    expect(calls).toHaveLength(1);
  });

  it("says so for an order that is not the customer's (404)", async () => {
    stubFetch({ 'GET /api/purchases/31': () => ({ status: 404, body: { error: 'not_found', message: 'Not found.' } }) });
    open();
    expect(await screen.findByTestId('thankyou-not-found')).toHaveTextContent('We could not find this order.');
  });

  it('asks a signed-out visitor to sign in and come back', () => {
    stubFetch({});
    open(fakeSession(null));
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/auth/login?next=%2Fthankyou%2F31');
  });
});
