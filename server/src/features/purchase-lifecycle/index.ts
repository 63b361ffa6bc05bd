// The purchase lifecycle's public face (issue 28 item 1; docs/architecture.md): one state machine
// (machine.ts) that every provider adapter (features/payments: Stripe, features/paypal: PayPal) feeds with
// events, and the effects of its moves. It imports no provider: they register themselves (providers.ts).
export { ABANDONED_ATTEMPT_AFTER_MS, expireAbandonedAttempts, startAbandonedAttemptsSweep } from './abandoned-attempts';
export { applyLifecycleEvent, applyStaffMove, followProviderStatus, type Applied, type EventInput } from './apply';
export { openAttempt, type Attempt, type AttemptTerms } from './attempt';
export { runEffects, type EffectsLog } from './effects';
export { completeFreePurchase } from './free';
export { DAY_MS, productOf, recordInvoice, wordsOf } from './grant';
export { lockPurchaseById } from './lock';
export { eventForStatus, LIFECYCLE_EVENTS, PURCHASE_STATES, STAFF_MOVES, staffMoveAllowed, TRANSITIONS, transitionFor, type LifecycleEvent, type PurchaseState } from './machine';
export { markPlanSwitchCancelDue, retryPlanSwitchCancels, SWITCH_REASON, PLAN_SWITCH_CANCEL } from './plan-switch';
export { registerPaymentProvider, type PaymentProviderPort } from './providers';
export { REFUND_DUE, retryDueRefunds } from './refunds';
export type { Effect, PaymentProvider, ProductRow, PurchaseRow } from './types';
