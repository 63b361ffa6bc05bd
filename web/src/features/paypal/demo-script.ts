// PAYMENTS_DEMO only (GET /paypal/config's js_url): the PayPal emulator's stand-in of PayPal's JS SDK v6
// core script, loaded before the SDK. @paypal/paypal-js's loadCoreSdkScript always loads paypal.com's
// script (its URL cannot be changed) unless window.paypal already holds a v6 namespace, which this script
// defines; so in the demo the real SDK code runs against the emulator and nothing comes from paypal.com.
// The page's CSP has 'strict-dynamic' (server index-html.ts), so a script our own code adds runs.
const loading = new Map<string, Promise<void>>();

/** Adds the script once per URL; resolves once it has run. A failed load may be retried. */
export function loadPayPalDemoScript(url: string): Promise<void> {
  const known = loading.get(url);
  if (known) return known;
  const promise = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.dataset.paypalDemo = 'true';
    script.addEventListener('load', () => resolve());
    script.addEventListener('error', () => {
      script.remove();
      reject(new Error('The demo PayPal script could not be loaded'));
    });
    document.head.appendChild(script);
  });
  loading.set(url, promise);
  promise.catch(() => loading.delete(url));
  return promise;
}

/** Tests only (test/setup.ts): no demo script loaded or loading (test/setup.ts empties the head). */
export function resetPayPalDemoScriptForTests() {
  loading.clear();
}
