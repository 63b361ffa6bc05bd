// The JSON of a product (spec part 1 §3 Product): exactly these fields leave the server, plus the
// viewer's abilities (DESIGN.md §7). Customers get the pricing fields; those who manage the product
// (policy.ts can 'update') get every field, for the product form.
import type { AvailableProduct, ManagedProduct } from '@pluma/common/products';
import { productPolicy, type ProductRow, type ProductViewer } from './policy';

export function presentProduct(viewer: ProductViewer, p: ProductRow): AvailableProduct {
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
    abilities: productPolicy.abilities(viewer, p),
  };
}

/** Every field, for the people who manage the product (GET /products, POST and PUT /products). */
export function presentManagedProduct(viewer: ProductViewer, p: ProductRow): ManagedProduct {
  return {
    ...presentProduct(viewer, p),
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
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** GET /products/{id}: every field when the viewer may update the product, the customer's view otherwise. */
export function presentProductFor(viewer: ProductViewer, p: ProductRow): AvailableProduct | ManagedProduct {
  return productPolicy.can(viewer, 'update', p) ? presentManagedProduct(viewer, p) : presentProduct(viewer, p);
}

/** A product's own fields in the spec's names (no abilities or timestamps): what the audit trail compares. */
export function presentManagedProductFields(p: ProductRow): Record<string, unknown> {
  const { abilities: _abilities, createdAt: _createdAt, updatedAt: _updatedAt, ...fields } = presentManagedProduct(null, p);
  return fields;
}
