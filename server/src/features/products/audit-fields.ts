// A product's own fields in the spec's names (no abilities or timestamps): what the audit trail compares when
// a product changes, and the body of the managers' JSON (present.ts). Apart from the presenter, so the
// service needs none.
import type { AvailableProduct, ManagedProduct } from '@pluma/common/products';
import type { ProductRow } from './policy';

export type ProductAuditFields = Omit<ManagedProduct, 'abilities' | 'createdAt' | 'updatedAt'>;

/** The fields every viewer of a product gets (the pricing list, checkout); present.ts adds the abilities. */
export function productPricingFields(p: ProductRow): Omit<AvailableProduct, 'abilities'> {
  return {
    product_id: p.productId,
    name: p.name,
    description: p.description,
    short_description: p.shortDescription,
    price: p.price,
    sale_price: p.salePrice,
    word_amount: p.wordAmount,
    is_subscription: p.isSubscription,
    subscription_period: p.subscriptionPeriod,
    subscription_interval: p.subscriptionInterval,
    expiration_days: p.expirationDays,
    free_trial_length: p.freeTrialLength,
    image: p.image,
    organization_id: p.organizationId,
  };
}

export function productAuditFields(p: ProductRow): ProductAuditFields {
  return {
    ...productPricingFields(p),
    free_trial_period: p.freeTrialPeriod === 'days' || p.freeTrialPeriod === 'date' ? p.freeTrialPeriod : null,
    free_trial_end: p.freeTrialEnd,
    free_trial_words: p.freeTrialWords,
    limit_per_user: p.limitPerUser,
    user_limit: p.userLimit,
    stripe_product_id: p.stripeProductId,
    stripe_price_id: p.stripePriceId,
    webhook_url: p.webhookUrl,
    product_sku: p.productSku,
    available: p.available,
    thumbnail: p.thumbnail,
    video_src: p.videoSrc,
  };
}
