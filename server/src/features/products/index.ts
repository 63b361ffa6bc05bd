// The products feature's public face: what other features may use (eslint.config.js, feature boundaries).
export { catalogRules, productPolicy, requireProduct, productNotFound, visibleTo as productsVisibleTo } from './policy';
export type { ProductRow, ProductViewer } from './policy';
export { seedProducts } from './seed';
export { assertCanBuy, COUNTED_PURCHASE_STATUSES, overLimitAtFulfilment, productUnavailable, purchaseLimitReached } from './purchase-limits';
