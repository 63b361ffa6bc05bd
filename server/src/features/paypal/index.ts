// What other features may use of paypal (the lint boundary: features meet through index.ts).
export { cancelPayPalSubscription } from './subscriptions';
export { payPalSettings } from './paypal-client';
