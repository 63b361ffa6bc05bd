// What other features may use of payments (the lint boundary: features meet through index.ts).
export { stripeSettingsChanged } from './stripe-client';
export { providerError, requireStripe, stripeClientForKey } from './stripe-client';
export { paymentCspSources } from './checkout-config';
export { payPalDemoScriptUrl, startPaymentsDemo } from './demo';
export { runEffects, type EffectsLog } from './effects';
export { completeFreePurchase, lockPurchaseById, type Effect, type PurchaseRow } from './fulfil';
export { insertPendingRow } from './checkout';
export { DAY_MS, fulfilOnce, productOf, recordInvoice, wordsOf } from './grant';
export { markPlanSwitchCancelDue, supersedeOtherPlans } from './plan-switch';
