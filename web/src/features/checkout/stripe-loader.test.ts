import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadStripeFrom, loadStripeScript } from './stripe-loader';

afterEach(() => {
  document.head.querySelectorAll('script[data-stripe-js]').forEach((s) => s.remove());
  delete window.Stripe;
});

describe('Stripe.js loader', () => {
  it('adds one script tag for the configured URL and builds one Stripe object per key and language', async () => {
    const url = 'http://127.0.0.1:4012/_emulator/stripe.js';
    const factory = vi.fn((key: string) => ({ key }));
    const first = loadStripeFrom(url, 'pk_test_1', 'es');
    const again = loadStripeFrom(url, 'pk_test_1', 'es');
    const scripts = document.head.querySelectorAll(`script[data-stripe-js]`);
    expect(scripts).toHaveLength(1);
    expect((scripts[0] as HTMLScriptElement).src).toBe(url);
    window.Stripe = factory as unknown as typeof window.Stripe;
    scripts[0].dispatchEvent(new Event('load'));
    expect(await first).toEqual({ key: 'pk_test_1' });
    expect(await again).toBe(await first);
    expect(factory).toHaveBeenCalledTimes(1);
    expect(factory).toHaveBeenCalledWith('pk_test_1', { locale: 'es' });
  });

  it('lets a failed load be tried again', async () => {
    const url = 'http://127.0.0.1:4012/missing.js';
    const failing = loadStripeScript(url);
    document.head.querySelector('script[data-stripe-js]')?.dispatchEvent(new Event('error'));
    await expect(failing).rejects.toThrow('could not be loaded');
    expect(document.head.querySelectorAll('script[data-stripe-js]')).toHaveLength(0);
    void loadStripeScript(url).catch(() => undefined);
    expect(document.head.querySelectorAll('script[data-stripe-js]')).toHaveLength(1);
  });
});
