// Pure helpers of the customers screens (spec part 1 §2, §9), unit-tested.
import type { AdminPurchaseRow } from '@pluma/common/admin-purchases';
import type { CustomerDetail, CustomerInvoice, CustomerSortKey } from '@pluma/common/admin-users';
import { formatCurrency, formatNumber, formatSpecDateTime } from '../../i18n/format';

/** spec part 1 §9: WhatsApp links use the country prefix 52 before the phone's digits. */
export function whatsappLink(phone: string | null): string | null {
  const digits = (phone ?? '').replace(/\D/g, '');
  return digits ? `https://wa.me/52${digits}` : null;
}

export const formatMoney = (value: number, lang: string) => formatCurrency(value, lang);

export { formatNumber };

/** spec part 1 §9: DD MMM YYYY HH:mm. */
export function formatDateTime(iso: string, lang: string): string {
  return formatSpecDateTime(iso, lang);
}

/** Clicking a sorted header flips its direction; another header starts descending (biggest first) except text. */
export function nextSort(current: { sort: CustomerSortKey; direction: 'asc' | 'desc' }, clicked: CustomerSortKey) {
  if (current.sort === clicked) return { sort: clicked, direction: current.direction === 'asc' ? ('desc' as const) : ('asc' as const) };
  const textual = clicked === 'name' || clicked === 'email' || clicked === 'role';
  return { sort: clicked, direction: textual ? ('asc' as const) : ('desc' as const) };
}

/** spec part 1 §4: a gift costs 0 (and hides the payment method); otherwise the product's price. */
export function giveAccessTotal(product: { price: number; sale_price: number | null } | undefined, gift: boolean): number {
  if (gift || !product) return 0;
  return product.sale_price ?? product.price;
}

/**
 * The invoice as the back-office invoice editor (admin-purchases InvoiceModal) takes it: an existing invoice
 * of the customer, or a new one already naming the customer (status pending, 0, no purchase: spec part 1 §4).
 */
export function invoiceEditorRow(customer: Pick<CustomerDetail, 'user_id' | 'name' | 'last_name' | 'email'>, invoice: CustomerInvoice | null): AdminPurchaseRow {
  const now = new Date().toISOString();
  return {
    type: 'invoice',
    purchase_id: invoice?.purchase_id ?? null,
    invoice_id: invoice?.invoice_id ?? null,
    user: { user_id: customer.user_id, name: customer.name, last_name: customer.last_name, email: customer.email },
    product: null,
    status: invoice?.status ?? 'pending',
    amount: invoice?.amount ?? 0,
    total_payment: invoice?.total_payment ?? 0,
    discount: null,
    payment_method: null,
    is_gift: false,
    expiration_days: null,
    payment_processor_id: null,
    order_id: invoice?.order_id ?? null,
    subscription_id: null,
    subscription_period: null,
    expiration_date: invoice?.expiration_date ?? null,
    cancel_reason: null,
    cancelledAt: null,
    createdAt: invoice?.createdAt ?? now,
    updatedAt: invoice?.createdAt ?? now,
    abilities: { edit: true, cancel_subscription: false },
  };
}
