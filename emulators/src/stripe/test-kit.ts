// Shared by the Stripe emulator's tests: the emulator with a real `stripe` SDK pointed at it, and a
// webhook receiver that records the raw bodies and headers it gets.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { startStripeEmulator, type RunningStripeEmulator, type StripeEmulatorOptions } from './server';

export const SECRET_KEY = 'sk_test_emulator_1234567890';

export async function startWithClient(options: StripeEmulatorOptions = {}): Promise<{ emulator: RunningStripeEmulator; stripe: Stripe }> {
  const emulator = await startStripeEmulator({ ...options, delivery: { retryBaseMs: 5, ...options.delivery } });
  const stripe = new Stripe(SECRET_KEY, { ...emulator.sdkOptions, maxNetworkRetries: 0 });
  return { emulator, stripe };
}

export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** An HTTP server that records deliveries; `answer` picks each reply's status (default 200). */
export async function startReceiver(answer: (received: Received, index: number) => number = () => 200) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(entry);
      res.writeHead(answer(entry, received.length - 1)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/stripe/webhook`,
    received,
    /** Parsed events in arrival order. */
    events: () => received.map((r) => JSON.parse(r.body) as Stripe.Event),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

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
