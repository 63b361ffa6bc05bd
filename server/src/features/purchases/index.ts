// What other features may use of purchases (the lint boundary: features meet through index.ts).
export { cancelAtProvider, isSubscription, subscriptionProviderOf } from './provider-cancel';
