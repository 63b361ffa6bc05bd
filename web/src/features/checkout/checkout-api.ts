// Calls of the checkout and thank-you screens (spec part 1 §7), typed by common/src/checkout.ts. The
// client never sends a price: the server recomputes it (common/src/rules/discounted-price.ts).
import type { CheckoutAttemptResponse, CheckoutConfigResponse, CustomerSessionResponse, OwnPurchaseRecord } from '@pluma/common/checkout';
import type { DiscountLookup } from '@pluma/common/discounts';
import type { AvailableProduct } from '@pluma/common/products';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/api-error';
import { api } from '../../api/instance';

export type { CheckoutAttemptResponse, CheckoutConfigResponse, CustomerSessionResponse, DiscountLookup, OwnPurchaseRecord };
export type CheckoutProduct = AvailableProduct;

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/** GET /checkout/config. A server without the route yet answers 404: that is "payments not configured". */
export async function fetchCheckoutConfig(): Promise<CheckoutConfigResponse> {
  try {
    return await api.get<CheckoutConfigResponse>('/checkout/config');
  } catch (error) {
    if (isNotFound(error)) return { stripe: null, demo: false };
    throw error;
  }
}

export function useCheckoutConfig() {
  return useQuery({ queryKey: ['checkout', 'config'], queryFn: fetchCheckoutConfig, staleTime: 60_000 });
}

/** GET /products/{id}: signed in or not (the answer's abilities depend on who asks). */
export function useCheckoutProduct(productId: number, signedIn: boolean) {
  return useQuery({
    queryKey: ['checkout', 'product', productId, signedIn],
    queryFn: ({ signal }) => api.get<CheckoutProduct>(`/products/${productId}`, { signal }),
    enabled: Number.isInteger(productId) && productId > 0,
    // A missing product stays missing: no retries for a 404.
    retry: (count, error) => !isNotFound(error) && count < 2,
  });
}

/**
 * POST /checkout/customer_session: a new Stripe CustomerSession of the signed-in customer, for Elements'
 * `customerSessionClientSecret` (the Payment Element lists the saved cards and offers to save a new one).
 * One per checkout page and user, never reused for another user, not retried: without one the Payment
 * Element still takes a new card.
 */
export function useCustomerSession(enabled: boolean, userId: number | null) {
  return useQuery({
    queryKey: ['checkout', 'customerSession', userId],
    queryFn: () => api.post<CustomerSessionResponse>('/checkout/customer_session'),
    enabled: enabled && userId !== null,
    // The Elements group keeps the secret it was created with: the page never swaps it under the form.
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/** GET /discounts/code/{code}?product_id= : the discount and the price it gives (spec part 1 §7). */
export const lookupDiscount = (code: string, productId: number) =>
  api.get<DiscountLookup>(`/discounts/code/${encodeURIComponent(code)}`, { query: { product_id: productId } });

/** POST /checkout/attempt: a pending purchase and what the browser must confirm with Stripe. */
export const attemptCheckout = (productId: number, discountCode: string | undefined) =>
  api.post<CheckoutAttemptResponse>('/checkout/attempt', { product_id: productId, ...(discountCode ? { discountCode } : {}) });

/** GET /purchases/{id}: one of the customer's own purchases. */
export const fetchPurchase = (purchaseId: number, signal?: AbortSignal) => api.get<OwnPurchaseRecord>(`/purchases/${purchaseId}`, { signal });
