// Products, prices and coupons: what Pluma's product form lists (GET /stripe/products, prices) and
// what subscriptions and discounts refer to.
import type { Ctx, Route } from './context';
import { invalidRequest, missingParam } from './errors';
import { bool, int, metadata, obj, str, strings, type Params } from './form';
import { newId, type StoredObject } from './store';

export interface ProductRecord extends StoredObject {
  object: 'product';
  active: boolean;
  name: string;
  description: string | null;
  default_price: string | null;
  images: string[];
  marketing_features: unknown[];
  metadata: Record<string, string>;
  package_dimensions: null;
  shippable: null;
  statement_descriptor: null;
  tax_code: null;
  tax_details: null;
  type: 'service';
  unit_label: null;
  updated: number;
  url: null;
}

export interface PriceRecord extends StoredObject {
  object: 'price';
  active: boolean;
  billing_scheme: 'per_unit';
  currency: string;
  custom_unit_amount: null;
  lookup_key: string | null;
  metadata: Record<string, string>;
  nickname: string | null;
  product: string;
  recurring: { interval: Interval; interval_count: number; usage_type: 'licensed'; meter: null; trial_period_days: null } | null;
  tax_behavior: 'unspecified';
  tiers_mode: null;
  transform_quantity: null;
  type: 'one_time' | 'recurring';
  unit_amount: number;
  unit_amount_decimal: string;
}

export interface CouponRecord extends StoredObject {
  object: 'coupon';
  amount_off: number | null;
  currency: string | null;
  duration: 'once' | 'repeating' | 'forever';
  duration_in_months: number | null;
  max_redemptions: number | null;
  metadata: Record<string, string>;
  name: string | null;
  percent_off: number | null;
  redeem_by: number | null;
  times_redeemed: number;
  valid: boolean;
}

export type Interval = 'day' | 'week' | 'month' | 'year';

function createProduct(ctx: Ctx, params: Params): ProductRecord {
  const name = str(params, 'name');
  if (!name) throw missingParam('name');
  const now = ctx.now();
  const product = ctx.store.put<ProductRecord>({
    id: str(params, 'id') ?? newId('prod_', 14),
    object: 'product',
    created: now,
    updated: now,
    livemode: false,
    active: bool(params, 'active') ?? true,
    name,
    description: str(params, 'description') ?? null,
    default_price: null,
    images: strings(params, 'images'),
    marketing_features: [],
    metadata: metadata(params),
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    type: 'service',
    unit_label: null,
    url: null,
  });
  const priceData = obj(params, 'default_price_data');
  if (Object.keys(priceData).length) product.default_price = createPrice(ctx, { ...priceData, product: product.id }).id;
  ctx.emit('product.created', product);
  return product;
}

function updateProduct(ctx: Ctx, product: ProductRecord, params: Params) {
  if (str(params, 'name')) product.name = str(params, 'name')!;
  if (params.description !== undefined) product.description = str(params, 'description') ?? null;
  if (bool(params, 'active') !== undefined) product.active = bool(params, 'active')!;
  if (str(params, 'default_price')) product.default_price = ctx.store.get<PriceRecord>('price', str(params, 'default_price'), 'default_price').id;
  product.metadata = metadata(params, product.metadata);
  product.updated = ctx.now();
  ctx.emit('product.updated', product);
  return product;
}

function createPrice(ctx: Ctx, params: Params): PriceRecord {
  const currency = str(params, 'currency')?.toLowerCase();
  if (!currency) throw missingParam('currency');
  const unitAmount = int(params, 'unit_amount');
  if (unitAmount === undefined) throw missingParam('unit_amount');
  if (unitAmount < 0) throw invalidRequest('This value must be greater than or equal to 0.', 'unit_amount');
  const productData = obj(params, 'product_data');
  const product = str(params, 'product')
    ? ctx.store.get<ProductRecord>('product', str(params, 'product'), 'product')
    : Object.keys(productData).length
      ? createProduct(ctx, productData)
      : undefined;
  if (!product) throw missingParam('product');
  const recurringParams = obj(params, 'recurring');
  let recurring: PriceRecord['recurring'] = null;
  if (Object.keys(recurringParams).length) {
    const interval = str(recurringParams, 'interval');
    if (!interval) throw missingParam('recurring[interval]');
    if (!['day', 'week', 'month', 'year'].includes(interval)) {
      throw invalidRequest(`Invalid recurring[interval]: must be one of day, month, week, or year`, 'recurring[interval]');
    }
    recurring = { interval: interval as Interval, interval_count: int(recurringParams, 'interval_count') ?? 1, usage_type: 'licensed', meter: null, trial_period_days: null };
  }
  const price = ctx.store.put<PriceRecord>({
    id: newId('price_'),
    object: 'price',
    created: ctx.now(),
    livemode: false,
    active: bool(params, 'active') ?? true,
    billing_scheme: 'per_unit',
    currency,
    custom_unit_amount: null,
    lookup_key: str(params, 'lookup_key') ?? null,
    metadata: metadata(params),
    nickname: str(params, 'nickname') ?? null,
    product: product.id,
    recurring,
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: recurring ? 'recurring' : 'one_time',
    unit_amount: unitAmount,
    unit_amount_decimal: String(unitAmount),
  });
  ctx.emit('price.created', price);
  return price;
}

function createCoupon(ctx: Ctx, params: Params): CouponRecord {
  const percentRaw = str(params, 'percent_off');
  const percentOff = percentRaw === undefined ? null : Number(percentRaw);
  const amountOff = int(params, 'amount_off') ?? null;
  if ((percentOff === null) === (amountOff === null)) {
    throw invalidRequest('You must pass either `percent_off` or `amount_off`, but not both.', percentOff === null ? 'amount_off' : 'percent_off');
  }
  if (percentOff !== null && !(percentOff > 0 && percentOff <= 100)) throw invalidRequest('Invalid percent_off: must be greater than 0 and at most 100.', 'percent_off');
  const currency = str(params, 'currency')?.toLowerCase() ?? null;
  if (amountOff !== null && !currency) throw invalidRequest('You must pass currency when passing amount_off.', 'currency');
  const duration = (str(params, 'duration') ?? 'once') as CouponRecord['duration'];
  if (!['once', 'repeating', 'forever'].includes(duration)) throw invalidRequest('Invalid duration: must be one of once, repeating, or forever', 'duration');
  const months = int(params, 'duration_in_months') ?? null;
  if (duration === 'repeating' && !months) throw invalidRequest('You must pass duration_in_months when duration is repeating.', 'duration_in_months');
  const id = str(params, 'id') ?? newId('', 8);
  if (ctx.store.find('coupon', id)) throw invalidRequest('Coupon already exists.', 'id', 'resource_already_exists');
  const coupon = ctx.store.put<CouponRecord>({
    id,
    object: 'coupon',
    created: ctx.now(),
    livemode: false,
    amount_off: amountOff,
    currency,
    duration,
    duration_in_months: duration === 'repeating' ? months : null,
    max_redemptions: int(params, 'max_redemptions') ?? null,
    metadata: metadata(params),
    name: str(params, 'name') ?? null,
    percent_off: percentOff,
    redeem_by: int(params, 'redeem_by') ?? null,
    times_redeemed: 0,
    valid: true,
  });
  ctx.emit('coupon.created', coupon);
  return coupon;
}

/** Counts a redemption; a coupon past its limit or date is refused, as in Stripe. */
export function redeemCoupon(ctx: Ctx, id: string, param: string): CouponRecord {
  const coupon = ctx.store.get<CouponRecord>('coupon', id, param);
  const expired = coupon.redeem_by !== null && coupon.redeem_by < ctx.now();
  const usedUp = coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions;
  if (expired || usedUp || !coupon.valid) throw invalidRequest(`Coupon expired: ${coupon.id}`, param, 'coupon_expired');
  coupon.times_redeemed++;
  if (coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions) coupon.valid = false;
  return coupon;
}

function filtered<T extends StoredObject>(ctx: Ctx, object: string, params: Params, match: (record: T) => boolean) {
  const active = bool(params, 'active');
  return ctx.store.all<T>(object, (r) => (active === undefined || (r as unknown as { active: boolean }).active === active) && match(r));
}

export const catalogRoutes: Route[] = [
  { method: 'POST', pattern: '/v1/products', handle: (ctx, { params }) => ctx.store.present(createProduct(ctx, params), params) },
  { method: 'GET', pattern: '/v1/products/:id', handle: (ctx, { params, ids }) => ctx.store.present(ctx.store.get('product', ids.id), params) },
  { method: 'POST', pattern: '/v1/products/:id', handle: (ctx, { params, ids }) => ctx.store.present(updateProduct(ctx, ctx.store.get('product', ids.id), params), params) },
  {
    method: 'GET',
    pattern: '/v1/products',
    handle: (ctx, { params, path }) => {
      const ids = strings(params, 'ids');
      return ctx.store.page(filtered<ProductRecord>(ctx, 'product', params, (p) => !ids.length || ids.includes(p.id)), params, path);
    },
  },
  { method: 'POST', pattern: '/v1/prices', handle: (ctx, { params }) => ctx.store.present(createPrice(ctx, params), params) },
  { method: 'GET', pattern: '/v1/prices/:id', handle: (ctx, { params, ids }) => ctx.store.present(ctx.store.get('price', ids.id), params) },
  {
    method: 'POST',
    pattern: '/v1/prices/:id',
    handle: (ctx, { params, ids }) => {
      const price = ctx.store.get<PriceRecord>('price', ids.id);
      if (bool(params, 'active') !== undefined) price.active = bool(params, 'active')!;
      if (params.nickname !== undefined) price.nickname = str(params, 'nickname') ?? null;
      price.metadata = metadata(params, price.metadata);
      ctx.emit('price.updated', price);
      return ctx.store.present(price, params);
    },
  },
  {
    method: 'GET',
    pattern: '/v1/prices',
    handle: (ctx, { params, path }) => {
      const product = str(params, 'product');
      const type = str(params, 'type');
      return ctx.store.page(filtered<PriceRecord>(ctx, 'price', params, (p) => (!product || p.product === product) && (!type || p.type === type)), params, path);
    },
  },
  { method: 'POST', pattern: '/v1/coupons', handle: (ctx, { params }) => ctx.store.present(createCoupon(ctx, params), params) },
  { method: 'GET', pattern: '/v1/coupons/:id', handle: (ctx, { params, ids }) => ctx.store.present(ctx.store.get('coupon', ids.id), params) },
  { method: 'GET', pattern: '/v1/coupons', handle: (ctx, { params, path }) => ctx.store.page(ctx.store.all('coupon'), params, path) },
  {
    method: 'DELETE',
    pattern: '/v1/coupons/:id',
    handle: (ctx, { ids }) => {
      const coupon = ctx.store.get<CouponRecord>('coupon', ids.id);
      ctx.store.delete(coupon.id);
      ctx.emit('coupon.deleted', coupon);
      return { id: coupon.id, object: 'coupon', deleted: true };
    },
  },
];
