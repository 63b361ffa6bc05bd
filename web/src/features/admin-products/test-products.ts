// A managed product as GET /products and GET /products/{id} answer (common/src/products.ts managedProduct), for the tests.
import type { ManagedProduct } from '@pluma/common/products';

export function managedProduct(overrides: Partial<ManagedProduct> = {}): ManagedProduct {
  return {
    product_id: 4,
    name: 'Pro',
    description: 'Everything, every month.',
    short_description: null,
    price: 25,
    sale_price: null,
    word_amount: 50_000,
    is_subscription: true,
    subscription_period: 'month',
    subscription_interval: 1,
    expiration_days: null,
    free_trial_length: null,
    image: null,
    organization_id: null,
    abilities: { read: true, buy: true, update: true, delete: true },
    free_trial_period: null,
    free_trial_end: null,
    free_trial_words: null,
    limit_per_user: null,
    user_limit: null,
    stripe_product_id: null,
    stripe_price_id: null,
    webhook_url: null,
    product_sku: null,
    available: true,
    thumbnail: null,
    video_src: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}
