// The /billing page's calls (spec part 1 §7): GET /purchases and GET /invoices/ (own, newest first),
// POST /purchases/cancel/{id} and GET /invoices/{id}/pdf.
import type { CancelPurchaseRequest, OwnInvoiceRecord, OwnPurchaseRecord } from '@pluma/common/checkout';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';

export const OWN_PURCHASES_KEY = ['billing', 'purchases'] as const;
export const OWN_INVOICES_KEY = ['billing', 'invoices'] as const;

export const fetchOwnPurchases = () => api.get<OwnPurchaseRecord[]>('/purchases');
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

/** Saves a file the API returned under the given name. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The click has started the download; the object URL can go once the event loop has moved on.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
