// Calls of the PayPal button (spec part 1 §7: the wallet order create row and POST /checkout/capture),
// typed by common/src/paypal.ts. The client never sends a price: the server computes it.
import type { PayPalCaptureResponse, PayPalConfigResponse, PayPalOrderResponse, PayPalSubscriptionResponse } from '@pluma/common/paypal';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/api-error';
import { api } from '../../api/instance';
import { loadPayPalDemoScript } from './demo-script';

/** GET /paypal/config: null when PayPal is not configured (404 paypal_not_configured). */
export async function fetchPayPalConfig(): Promise<PayPalConfigResponse | null> {
  try {
    return await api.get<PayPalConfigResponse>('/paypal/config');
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function usePayPalConfig() {
  return useQuery({ queryKey: ['paypal', 'config'], queryFn: fetchPayPalConfig, staleTime: 60_000, retry: false });
}

/** PAYMENTS_DEMO only: the emulator's stand-in of PayPal's v6 script, loaded before the SDK looks for one. */
export function usePayPalDemoScript(url: string | undefined) {
  return useQuery({ queryKey: ['paypal', 'demo-script', url], queryFn: () => loadPayPalDemoScript(url!).then(() => true), enabled: !!url, staleTime: Infinity, retry: 1 });
}

/** Whether the product is a subscription (GET /products/{id}), to pick the order or the subscription flow. */
export function useProductKind(productId: number, enabled: boolean) {
  return useQuery({
    queryKey: ['paypal', 'product', productId],
    queryFn: ({ signal }) => api.get<{ is_subscription: boolean }>(`/products/${productId}`, { signal }),
    select: (product) => (product.is_subscription ? ('subscription' as const) : ('one-time' as const)),
    enabled: enabled && Number.isInteger(productId) && productId > 0,
  });
}

const body = (productId: number, discountCode?: string) => ({ product_id: productId, ...(discountCode?.trim() ? { discountCode: discountCode.trim() } : {}) });

export const createPayPalOrder = (productId: number, discountCode?: string) => api.post<PayPalOrderResponse>('/paypal/orders', body(productId, discountCode));
export const capturePayPalOrder = (orderId: string) => api.post<PayPalCaptureResponse>('/checkout/capture', { order_id: orderId });
export const createPayPalSubscription = (productId: number, discountCode?: string) => api.post<PayPalSubscriptionResponse>('/paypal/subscriptions', body(productId, discountCode));
