// The pending purchase both PayPal flows start with, as Stripe checkout does (payments/checkout.ts): the
// product the actor may buy, the discount if usable, the price the server computes (sale price, then the
// discount: rules/discounted-price.ts; the client sends no price), and the buying limits checked under
// the product's row lock in the transaction that opens the attempt (purchase-lifecycle/attempt.ts: the
// customer's open attempt on the same terms is reused, so a repeated click gets the same PayPal order or
// subscription through the same PayPal-Request-Id). A subscription while another is live is allowed: it
// switches plans once it is live (purchase-lifecycle/plan-switch.ts).
import { PaymentErrorIds } from '@pluma/common/checkout';
import { PayPalErrorIds, type PayPalOrderRequest } from '@pluma/common/paypal';
import { basePriceCents, discountedPriceCents } from '@pluma/common/rules/discounted-price';
import type { AppContext } from '../../context';
import type { Actor } from '../../platform/auth/actor';
import { AppError } from '../../platform/http/errors';
import { requireUsableDiscount, type DiscountRow } from '../discounts';
import { assertCanBuy, requireProduct, type ProductRow } from '../products';
import { openAttempt, runEffects, type EffectsLog, type PurchaseRow } from '../purchase-lifecycle';

const DAY_S = 86_400;

export const wrongProductKind = () => new AppError(400, PayPalErrorIds.wrongKind, 'paypal_wrong_product_kind');
const organizationPaymentsNotConfigured = () => new AppError(409, PaymentErrorIds.organizationNotConfigured, 'organization_payments_not_configured');

export interface PendingPurchase {
  purchase: PurchaseRow;
  product: ProductRow;
  discount: DiscountRow | null;
  baseCents: number;
  chargeCents: number;
  /** Free trial days (products' free_trial_length, or the days left to free_trial_end). */
  trialDays: number | null;
}

/** The trial's length in days: free_trial_length, or the days left until free_trial_end (if still ahead). */
export function trialDaysOf(product: ProductRow, now: number = Date.now()): number | null {
  if (!product.isSubscription) return null;
  if (product.freeTrialPeriod === 'date' && product.freeTrialEnd) {
    const end = Math.floor(Date.parse(`${product.freeTrialEnd}T00:00:00Z`) / 1000);
    return Number.isFinite(end) && end > now / 1000 + 3600 ? Math.ceil((end - now / 1000) / DAY_S) : null;
  }
  return product.freeTrialLength && product.freeTrialLength > 0 ? product.freeTrialLength : null;
}

/** Validates the request against the product's kind and creates the pending purchase (paid with PayPal). */
export async function createPendingPurchase(ctx: AppContext, actor: Actor, input: PayPalOrderRequest, kind: 'one-time' | 'subscription', log: EffectsLog): Promise<PendingPurchase> {
  const product = await requireProduct(ctx.db, actor, input.product_id, 'buy');
  if (product.isSubscription !== (kind === 'subscription')) throw wrongProductKind();
  // Only Stripe pays into an organization's account (spec part 2 §3: its stripe_* keys); PayPal pays the operator.
  if (product.organizationId !== null) throw organizationPaymentsNotConfigured();
  const code = input.discountCode?.trim();
  const discount = code ? await requireUsableDiscount({ db: ctx.db, code, product }) : null;
  const terms = { price: product.price, sale_price: product.salePrice };
  const baseCents = basePriceCents(terms);
  const chargeCents = discountedPriceCents(terms, discount ? { is_percent: discount.isPercent, amount: discount.amount } : null);
  const trialDays = trialDaysOf(product);

  const attempt = await ctx.db.transaction(async (tx) => {
    await assertCanBuy({ db: tx, actor, product });
    return openAttempt(tx, actor, { product, discountCode: discount?.code ?? null, baseCents, chargeCents, trialDays, method: 'paypal' });
  });
  await runEffects(ctx, log, attempt.effects);
  return { purchase: attempt.purchase, product, discount, baseCents, chargeCents, trialDays };
}
