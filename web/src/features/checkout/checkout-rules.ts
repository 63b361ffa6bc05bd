// spec part 1 §4 "Checkout": a customer who already has an active purchase of this product is told so
// and sent home; if the active purchase has a higher product number, or is product 1, a downgrade
// warning asks for confirmation before paying. "Valid purchases are status active or completed; the
// newest by createdAt is taken" — the server gives that one as the current user's `purchase`.
import { basePriceCents, type PricedProduct } from '@pluma/common/rules/discounted-price';
import type { CurrentUser } from '@pluma/common/users';

export type CheckoutVerdict = 'buy' | 'alreadyOwned' | 'downgrade';

const VALID_STATUSES = new Set(['active', 'completed']);

/** The user's current valid purchase, or null (an expired one no longer counts). */
export function activePurchaseOf(user: Pick<CurrentUser, 'purchase'>, now = Date.now()): NonNullable<CurrentUser['purchase']> | null {
  const purchase = user.purchase;
  if (!purchase || !VALID_STATUSES.has(purchase.status)) return null;
  const expires = Date.parse(purchase.expires_at);
  if (Number.isFinite(expires) && expires <= now) return null;
  return purchase;
}

export function checkoutVerdict(user: Pick<CurrentUser, 'purchase'> | null, productId: number, now = Date.now()): CheckoutVerdict {
  const active = user ? activePurchaseOf(user, now) : null;
  if (!active || active.product_id === null) return 'buy';
  if (active.product_id === productId) return 'alreadyOwned';
  if (active.product_id > productId || active.product_id === 1) return 'downgrade';
  return 'buy';
}

/** How the plan change compares in price: the confirmation's wording (issue 28 item 4). */
export type PlanChangeKind = 'upgrade' | 'downgrade' | 'change';

/**
 * The spec decides *when* a change is confirmed (checkoutVerdict: a higher product number, or product 1);
 * the wording comes from the real price comparison — the base prices (sale price when set) the pricing
 * page shows: a dearer plan is an upgrade, a cheaper one a lower plan, the same price (or a current plan
 * whose price is unknown: no longer on sale) a neutral change.
 */
export function planChangeKind(current: PricedProduct | null | undefined, next: PricedProduct): PlanChangeKind {
  if (!current) return 'change';
  const from = basePriceCents(current);
  const to = basePriceCents(next);
  return to > from ? 'upgrade' : to < from ? 'downgrade' : 'change';
}
