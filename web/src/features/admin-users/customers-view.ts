// Pure helpers of the customers screens (spec part 1 §2, §9), unit-tested.
import type { CustomerSortKey } from '@pluma/common/admin-users';

/** spec part 1 §9: WhatsApp links use the country prefix 52 before the phone's digits. */
export function whatsappLink(phone: string | null): string | null {
  const digits = (phone ?? '').replace(/\D/g, '');
  return digits ? `https://wa.me/52${digits}` : null;
}

export const formatMoney = (value: number, lang: string) =>
  new Intl.NumberFormat(lang === 'es' ? 'es-MX' : 'en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(value);

export const formatNumber = (value: number, lang: string) => new Intl.NumberFormat(lang === 'es' ? 'es-MX' : 'en-US').format(value);

/** spec part 1 §9: DD MMM YYYY HH:mm. */
export function formatDateTime(iso: string, lang: string): string {
  const d = new Date(iso);
  const day = String(d.getDate()).padStart(2, '0');
  const month = d.toLocaleString(lang === 'es' ? 'es-MX' : 'en-US', { month: 'short' }).replace('.', '');
  return `${day} ${month} ${d.getFullYear()} ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
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
