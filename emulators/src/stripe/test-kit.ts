// Shared by the Stripe emulator's tests: the emulator with a real `stripe` SDK pointed at it, and a
// webhook receiver that records the raw bodies and headers it gets.
import Stripe from 'stripe';
import { startWebhookReceiver, type Received } from '../webhook-receiver';
import { startStripeEmulator, type RunningStripeEmulator, type StripeEmulatorOptions } from './server';

export const SECRET_KEY = 'sk_test_emulator_1234567890';

export async function startWithClient(options: StripeEmulatorOptions = {}): Promise<{ emulator: RunningStripeEmulator; stripe: Stripe }> {
  const emulator = await startStripeEmulator({ ...options, delivery: { retryBaseMs: 5, ...options.delivery } });
  const stripe = new Stripe(SECRET_KEY, { ...emulator.sdkOptions, maxNetworkRetries: 0 });
  return { emulator, stripe };
}

export type { Received };

/** An HTTP server that records deliveries; `answer` picks each reply's status (default 200). */
export const startReceiver = (answer?: (received: Received, index: number) => number) => startWebhookReceiver<Stripe.Event>('/api/stripe/webhook', answer);

/** A customer with a saved default card (a `pm_card_*` shortcut). */
export async function customerWithCard(stripe: Stripe, card = 'pm_card_visa') {
  const customer = await stripe.customers.create({ email: 'ana@example.com', name: 'Ana' });
  const pm = await stripe.paymentMethods.attach(card, { customer: customer.id });
  await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } });
  return { customer, pm };
}

export async function monthlyPrice(stripe: Stripe, unitAmount = 2000) {
  const product = await stripe.products.create({ name: 'Pluma Pro', description: 'Monthly plan' });
  return stripe.prices.create({ product: product.id, unit_amount: unitAmount, currency: 'usd', recurring: { interval: 'month', interval_count: 1 } });
}
