// The JSON of a product (spec part 1 §3 Product): exactly these fields leave the server, plus the
// viewer's abilities (DESIGN.md §7).
import type { AvailableProduct } from '@pluma/common/products';
import { productAbilities, type ProductRow, type ProductViewer } from './policy';

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
    abilities: productAbilities(viewer, p),
  };
}
