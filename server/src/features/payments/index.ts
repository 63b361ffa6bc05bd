// What other features may use of payments (the lint boundary: features meet through index.ts). Stripe is an
// adapter of the purchase lifecycle (features/purchase-lifecycle): it imports the lifecycle, never the reverse.
export { stripeSettingsChanged } from './stripe-client';
export { providerError, requireStripe, stripeClientForKey } from './stripe-client';
export { paymentCspSources } from './checkout-config';
