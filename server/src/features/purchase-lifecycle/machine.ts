// The purchase lifecycle's one table (issue 28 item 1; DESIGN.md §7 "A lifecycle owns its states"): every
// state a purchase can be in, every event that moves it, and what each move does. Providers (Stripe in
// features/payments, PayPal in features/paypal) are adapters: they read the provider's state and turn it into
// one of these events; apply.ts looks the move up here and runs its effects. A (state, event) pair that is
// not in the table is refused: nothing changes (a duplicate delivery, a decline after the payment, a
// provider event about a purchase staff ended).
//
// States: spec part 1 §4's active, completed, pending, cancelled, revoked, plus failed (declined, or paid
// over a limit and refunded: failure_reason) and expired (not paid within ABANDONED_ATTEMPT_AFTER_MS).
// Staff set a status themselves (PUT /purchases/admin, give and revoke access): their moves are the second
// table below, by target (STAFF_MOVES).
import { allowedPurchaseStatuses, LIFECYCLE_PURCHASE_STATUSES, PurchaseFailureReasons, type LifecyclePurchaseStatus, type PurchaseStatus } from '@pluma/common/admin-purchases';

export const PURCHASE_STATES = LIFECYCLE_PURCHASE_STATUSES;
export type PurchaseState = LifecyclePurchaseStatus;

export const LIFECYCLE_EVENTS = [
  /** A one-time payment arrived in full (Stripe's PaymentIntent succeeded, PayPal's capture COMPLETED, or nothing to pay). */
  'paid',
  /** A subscription became live at its provider (paid, or a trial with a card on file). */
  'subscribed',
  /** The provider declined the payment (Stripe payment_intent.payment_failed, PayPal DECLINED / INSTRUMENT_DECLINED). */
  'declined',
  /** Not paid within the attempt's time, or replaced by a new attempt on other terms. */
  'abandoned',
  /** A subscription ended at its provider after it was paid (the customer's cancel, the provider's). */
  'ended',
  /** The provider took access away (Stripe unpaid, paused, canceled unpaid; PayPal SUSPENDED). */
  'lapsed',
  /** The provider gave access back after its own lapse (staff revocations are final: the adapter checks). */
  'restored',
] as const;
export type LifecycleEvent = (typeof LIFECYCLE_EVENTS)[number];

/**
 * What a move does, in order:
 * - fulfil: the buying limits and the discount's one use are checked under row locks (limits.ts); over
 *   either, the move becomes OVER_LIMIT instead; else the words are granted once (ledger source purchase/id)
 *   and the discount redeemed once;
 * - receipt: after the commit, the receipt mail and the product's webhook (effects.ts 'activated');
 * - supersede: the customer's other live plan ends (plan-switch.ts);
 * - refund: after the commit, the payment goes back through its provider (providers.ts);
 * - record_failure: failure_reason is stored (else cleared).
 */
export type TransitionEffect = 'fulfil' | 'receipt' | 'supersede' | 'refund' | 'record_failure';

export interface Transition {
  from: PurchaseState;
  on: LifecycleEvent;
  to: PurchaseState;
  effects: readonly TransitionEffect[];
  /** declined: only from a failure the provider declined — a payment we refunded over a limit stays failed. */
  when?: 'declined';
}

const PAID: readonly TransitionEffect[] = ['fulfil', 'receipt'];
const SUBSCRIBED: readonly TransitionEffect[] = ['fulfil', 'receipt', 'supersede'];

/** Every allowed move. Anything else is refused. */
export const TRANSITIONS: readonly Transition[] = [
  { from: 'pending', on: 'paid', to: 'completed', effects: PAID },
  // A declined PaymentIntent can still be paid with another card; an abandoned attempt's open checkout can
  // still be paid: money that arrived is honoured (within the limits, checked by fulfil).
  { from: 'failed', on: 'paid', to: 'completed', effects: PAID, when: 'declined' },
  { from: 'expired', on: 'paid', to: 'completed', effects: PAID },
  { from: 'pending', on: 'subscribed', to: 'active', effects: SUBSCRIBED },
  { from: 'failed', on: 'subscribed', to: 'active', effects: SUBSCRIBED, when: 'declined' },
  { from: 'expired', on: 'subscribed', to: 'active', effects: SUBSCRIBED },
  // Paid and ended before we heard of it: bought (words once), with access to the paid period's end.
  { from: 'pending', on: 'ended', to: 'cancelled', effects: PAID },
  { from: 'pending', on: 'declined', to: 'failed', effects: ['record_failure'] },
  { from: 'pending', on: 'abandoned', to: 'expired', effects: [] },
  { from: 'active', on: 'ended', to: 'cancelled', effects: [] },
  { from: 'active', on: 'lapsed', to: 'revoked', effects: [] },
  { from: 'revoked', on: 'restored', to: 'active', effects: [] },
];

/**
 * What a payment that arrives over a limit does instead of its move (issue 28 item 3): the purchase fails
 * with failure_reason over_limit or discount_used_up, and the payment is refunded at its provider.
 */
export const OVER_LIMIT: { to: PurchaseState; effects: readonly TransitionEffect[] } = { to: 'failed', effects: ['record_failure', 'refund'] };

/** Failure reasons that are ours: the payment arrived over a limit and was refunded (never fulfilled later). */
export const REFUNDED_FAILURES: readonly string[] = [PurchaseFailureReasons.overLimit, PurchaseFailureReasons.discountUsedUp];

/** The move for `event` from the purchase's state, or null when the table refuses it. */
export function transitionFor(purchase: { status: string; failureReason: string | null }, on: LifecycleEvent): Transition | null {
  const move = TRANSITIONS.find((t) => t.from === purchase.status && t.on === on) ?? null;
  if (move?.when === 'declined' && REFUNDED_FAILURES.includes(purchase.failureReason ?? '')) return null;
  return move;
}

/**
 * The event that moves a purchase from `from` to the status a provider's subscription state gives it (the
 * adapters map Stripe's and PayPal's subscription statuses to purchase statuses first); null when none does
 * (the table would refuse it anyway). A subscription that ends never paid (Stripe's incomplete_expired,
 * canceled or expired before its first payment) is an abandoned attempt: expired.
 */
export function eventForStatus(from: string, to: string): LifecycleEvent | null {
  if (to === 'active') return from === 'revoked' ? 'restored' : 'subscribed';
  if (to === 'cancelled') return 'ended';
  if (to === 'revoked') return from === 'pending' ? 'abandoned' : 'lapsed';
  return null;
}

/** The statuses a purchase is open in: not paid yet (the only one a new attempt reuses). */
export const OPEN_STATES: readonly PurchaseState[] = ['pending'];

/**
 * Staff's moves (spec part 1 §4 admin edit form, give access, revoke access). Staff choose the status, so this
 * table is by target: what setting it does. Which targets a status allows is the spec's rule — a cancelled or
 * revoked purchase only to cancelled or revoked, any other to any of the five (allowedPurchaseStatuses).
 * - grant: the package's words at once, once ever (ledger source purchase/id, the one a payment uses too).
 * Cancelling a live subscription at its provider happens before the move (purchases/cancel-service.ts), as the
 * customer's own cancel does: if the provider refuses, nothing moves.
 */
export type StaffMoveEffect = 'grant';
export const STAFF_MOVES: Record<PurchaseStatus, readonly StaffMoveEffect[]> = {
  active: ['grant'],
  completed: ['grant'],
  pending: [],
  cancelled: [],
  revoked: [],
};

/** Whether staff may set `to` on a purchase in `from` (PUT /purchases/admin answers 409 otherwise). */
export function staffMoveAllowed(from: string, to: string): to is PurchaseStatus {
  return (allowedPurchaseStatuses(from) as readonly string[]).includes(to);
}

