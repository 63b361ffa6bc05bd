// What other features may use of payments (the lint boundary: features meet through index.ts).
export { stripeSettingsChanged } from './stripe-client';
