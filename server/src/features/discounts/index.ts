// The discounts feature's public face: what other features may use (eslint.config.js, feature boundaries).
export { discountAppliesTo, discountInvalid, discountUnavailable, discountUsable, redeemDiscount, requireUsableDiscount } from './redemption';
export type { DiscountRow } from './redemption';
export { DEMO_DISCOUNT_CODE, seedDemoDiscount, seedSampleCatalog } from './seed';
