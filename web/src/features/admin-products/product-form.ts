// The product form's rules (spec part 1 §2 "Product form", §4 "Product form", §5), pure so each is
// unit-tested: the unlimited toggle (on when word_amount is null; it clears word_amount), enabling a
// subscription sets period month and interval 1, a free trial by days or by end date, the client-side
// 'Validation Errors:' list, the save rule (non-numeric id → POST) and how a Stripe price is shown.
import type { createProductRequest, ManagedProduct, SubscriptionPeriod, updateProductRequest } from '@pluma/common/products';
import type { z } from 'zod';
import type { stripePriceRecord } from '@pluma/common/checkout';
import { formatCurrency } from '../../i18n/format';

type NumberField = number | '';
export type TrialKind = 'none' | 'days' | 'date';

export interface ProductFormValues {
  name: string;
  description: string;
  short_description: string;
  price: NumberField;
  sale_price: NumberField;
  unlimited: boolean;
  word_amount: NumberField;
  free_trial_words: NumberField;
  is_subscription: boolean;
  subscription_period: SubscriptionPeriod | null;
  subscription_interval: NumberField;
  expiration_days: NumberField;
  trial: TrialKind;
  free_trial_length: NumberField;
  /** YYYY-MM-DD (spec part 1 §5: date inputs), '' when not set. */
  free_trial_end: string;
  stripe_product_id: string;
  stripe_price_id: string;
  webhook_url: string;
  product_sku: string;
  user_limit: NumberField;
  limit_per_user: NumberField;
  available: boolean;
}

/** The translatable keys of the form's own checks (spec part 1 §5). */
export type ProductFormError = 'invalid_name' | 'invalid_description' | 'invalid_price' | 'invalid_word_amount';

export const emptyProductForm = (): ProductFormValues => ({
  name: '',
  description: '',
  short_description: '',
  price: '',
  sale_price: '',
  unlimited: false,
  word_amount: '',
  free_trial_words: '',
  is_subscription: false,
  subscription_period: null,
  subscription_interval: '',
  expiration_days: '',
  trial: 'none',
  free_trial_length: '',
  free_trial_end: '',
  stripe_product_id: '',
  stripe_price_id: '',
  webhook_url: '',
  product_sku: '',
  user_limit: '',
  limit_per_user: '',
  available: true,
});

const num = (value: number | null): NumberField => value ?? '';

export function productFormValues(p: ManagedProduct): ProductFormValues {
  return {
    name: p.name,
    description: p.description,
    short_description: p.short_description ?? '',
    price: p.price,
    sale_price: num(p.sale_price),
    // spec part 1 §4: the unlimited toggle starts on when word_amount is null.
    unlimited: p.word_amount === null,
    word_amount: num(p.word_amount),
    free_trial_words: num(p.free_trial_words),
    is_subscription: p.is_subscription,
    subscription_period: (p.subscription_period as SubscriptionPeriod | null) ?? null,
    subscription_interval: num(p.subscription_interval),
    expiration_days: num(p.expiration_days),
    trial: p.free_trial_end ? 'date' : p.free_trial_length ? 'days' : 'none',
    free_trial_length: num(p.free_trial_length),
    free_trial_end: p.free_trial_end?.slice(0, 10) ?? '',
    stripe_product_id: p.stripe_product_id ?? '',
    stripe_price_id: p.stripe_price_id ?? '',
    webhook_url: p.webhook_url ?? '',
    product_sku: p.product_sku ?? '',
    user_limit: num(p.user_limit),
    limit_per_user: num(p.limit_per_user),
    available: p.available,
  };
}

/** spec part 1 §4: the unlimited toggle clears word_amount. */
export function withUnlimited(values: ProductFormValues, unlimited: boolean): ProductFormValues {
  return { ...values, unlimited, word_amount: unlimited ? '' : values.word_amount };
}

/** spec part 1 §4 and §9: enabling a subscription sets period month and interval 1. */
export function withSubscription(values: ProductFormValues, on: boolean): ProductFormValues {
  if (!on) return { ...values, is_subscription: false };
  return { ...values, is_subscription: true, subscription_period: 'month', subscription_interval: 1 };
}

const isPositive = (value: NumberField) => typeof value === 'number' && Number.isFinite(value) && value > 0;

/** spec part 1 §5: the checks a Save runs before calling the server, in the order of the list. */
export function productFormErrors(values: ProductFormValues): ProductFormError[] {
  const errors: ProductFormError[] = [];
  if (!values.name.trim()) errors.push('invalid_name');
  if (!values.description.trim()) errors.push('invalid_description');
  if (!isPositive(values.price)) errors.push('invalid_price');
  if (!values.unlimited && !(isPositive(values.word_amount) && Number.isInteger(values.word_amount))) errors.push('invalid_word_amount');
  return errors;
}

const orNull = (value: NumberField): number | null => (value === '' ? null : value);
const textOrNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/** The body of POST /products (and, with product_id, of PUT /products). */
export function productPayload(values: ProductFormValues): z.input<typeof createProductRequest> {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    short_description: textOrNull(values.short_description),
    price: values.price === '' ? 0 : values.price,
    sale_price: orNull(values.sale_price),
    word_amount: values.unlimited ? null : orNull(values.word_amount),
    free_trial_words: orNull(values.free_trial_words),
    is_subscription: values.is_subscription,
    subscription_period: values.is_subscription ? values.subscription_period : null,
    subscription_interval: values.is_subscription ? orNull(values.subscription_interval) : null,
    expiration_days: orNull(values.expiration_days),
    free_trial_length: values.trial === 'days' ? orNull(values.free_trial_length) : null,
    free_trial_end: values.trial === 'date' && values.free_trial_end ? values.free_trial_end : null,
    stripe_product_id: textOrNull(values.stripe_product_id),
    stripe_price_id: textOrNull(values.stripe_price_id),
    webhook_url: textOrNull(values.webhook_url),
    product_sku: textOrNull(values.product_sku),
    user_limit: orNull(values.user_limit),
    limit_per_user: orNull(values.limit_per_user),
    available: values.available,
  };
}

export function updatePayload(productId: number, values: ProductFormValues): z.input<typeof updateProductRequest> {
  return { product_id: productId, ...productPayload(values) };
}

/** spec part 1 §4 "Saving rule for every entity": an id that is not numeric means create (POST). */
export const isNewProductId = (id: string | undefined): boolean => !id || !/^\d+$/.test(id);

export type StripePrice = z.infer<typeof stripePriceRecord>;

/** spec part 1 §3 "Provider price": dollars with currency, the interval or 'One-Time', and the id. */
export function stripePriceLabel(price: StripePrice, oneTime: string): string {
  const dollars = price.unit_amount === null ? '—' : formatCurrency(price.unit_amount / 100);
  const interval = price.recurring ? (price.recurring.interval_count > 1 ? `${price.recurring.interval_count} ${price.recurring.interval}` : price.recurring.interval) : oneTime;
  return `${dollars} ${price.currency.toUpperCase()} · ${interval} · ${price.id}`;
}

/** Picking a recurring price makes the product a subscription of the price's period and interval. */
export function withStripePrice(values: ProductFormValues, price: StripePrice | null): ProductFormValues {
  if (!price) return { ...values, stripe_price_id: '' };
  const next = { ...values, stripe_price_id: price.id };
  const interval = price.recurring?.interval;
  if (interval === 'day' || interval === 'month' || interval === 'year') {
    return { ...next, is_subscription: true, subscription_period: interval, subscription_interval: price.recurring?.interval_count ?? 1 };
  }
  return next;
}
