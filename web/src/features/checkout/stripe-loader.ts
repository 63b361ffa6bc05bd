// Loads Stripe.js from the configured URL (GET /checkout/config → stripe.js_url): Stripe's own script in
// production, the emulator's stand-in in the browser tests and PAYMENTS_DEMO. @stripe/stripe-js's
// loadStripe() always injects js.stripe.com, so the script tag is ours; Stripe.js is never bundled.
// The page's CSP has 'strict-dynamic' (server/src/platform/http/index-html.ts): a script our own
// (nonce-trusted) code adds runs without a nonce of its own.
import type { Stripe, StripeConstructor } from '@stripe/stripe-js';

declare global {
  interface Window {
    Stripe?: StripeConstructor;
  }
}

const scripts = new Map<string, Promise<StripeConstructor>>();
const instances = new Map<string, Promise<Stripe>>();

/** Adds the script once per URL; resolves with window.Stripe once it has run. A failed load may be retried. */
export function loadStripeScript(jsUrl: string): Promise<StripeConstructor> {
  const known = scripts.get(jsUrl);
  if (known) return known;
  const loading = new Promise<StripeConstructor>((resolve, reject) => {
    const existing = document.querySelector<HTMLScriptElement>(`script[data-stripe-js="${CSS.escape(jsUrl)}"]`);
    if (existing && window.Stripe) {
      resolve(window.Stripe);
      return;
    }
    const script = existing ?? document.createElement('script');
    script.src = jsUrl;
    script.async = true;
    script.dataset.stripeJs = jsUrl;
    script.addEventListener('load', () => (window.Stripe ? resolve(window.Stripe) : reject(new Error('Stripe.js did not load'))));
    script.addEventListener('error', () => {
      script.remove();
      reject(new Error('Stripe.js could not be loaded'));
    });
    if (!existing) document.head.appendChild(script);
  });
  scripts.set(jsUrl, loading);
  loading.catch(() => scripts.delete(jsUrl));
  return loading;
}

/** One Stripe object per (script, key, language) for the whole page. */
export function loadStripeFrom(jsUrl: string, publishableKey: string, locale: string): Promise<Stripe> {
  const id = `${jsUrl}\n${publishableKey}\n${locale}`;
  const known = instances.get(id);
  if (known) return known;
  const loading = loadStripeScript(jsUrl).then((StripeJs) => StripeJs(publishableKey, { locale: locale as 'en' }));
  instances.set(id, loading);
  loading.catch(() => instances.delete(id));
  return loading;
}

/** Tests only (test/setup.ts): no script loaded or loading, no Stripe object (test/setup.ts empties the head). */
export function resetStripeLoaderForTests() {
  scripts.clear();
  instances.clear();
}
