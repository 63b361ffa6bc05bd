// The /billing page's calls (spec part 1 §7): GET /purchases and GET /invoices/ (own, newest first),
// POST /purchases/cancel/{id}, GET /invoices/{id}/pdf, and the saved cards (GET and DELETE /payment_sources).
import type { CancelPurchaseRequest, OwnInvoiceRecord, OwnPurchaseRecord, PaymentSourceRecord } from '@pluma/common/checkout';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';
import type { BillingPurchase } from './billing-view';

export const OWN_PURCHASES_KEY = ['billing', 'purchases'] as const;
export const OWN_INVOICES_KEY = ['billing', 'invoices'] as const;
export const SAVED_CARDS_KEY = ['billing', 'payment-sources'] as const;

export const fetchOwnPurchases = () => api.get<BillingPurchase[]>('/purchases');
export const fetchOwnInvoices = () => api.get<OwnInvoiceRecord[]>('/invoices/');

export function useOwnPurchases() {
  return useQuery({ queryKey: OWN_PURCHASES_KEY, queryFn: fetchOwnPurchases });
}

export function useOwnInvoices() {
  return useQuery({ queryKey: OWN_INVOICES_KEY, queryFn: fetchOwnInvoices });
}

export const cancelPurchase = (purchaseId: number, cancelReason: string) =>
  api.post<OwnPurchaseRecord>(`/purchases/cancel/${purchaseId}`, { cancel_reason: cancelReason, status: 'cancelled' } satisfies CancelPurchaseRequest);

export const fetchInvoicePdf = (invoiceId: number) => api.get<Blob>(`/invoices/${invoiceId}/pdf`, { responseType: 'blob' });

export const fetchSavedCards = () => api.get<PaymentSourceRecord[]>('/payment_sources');

export function useSavedCards() {
  return useQuery({ queryKey: SAVED_CARDS_KEY, queryFn: fetchSavedCards });
}

export const removeSavedCard = (paymentSourceId: string) => api.delete<void>(`/payment_sources/${encodeURIComponent(paymentSourceId)}`);
