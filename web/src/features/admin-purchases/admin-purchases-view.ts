// Pure pieces of the /admin page: badge colours, money and dates as the spec shows them (§9: USD with
// thousands separators and 2 decimals; DD MMM YYYY HH:mm), and the page count.
import { ADMIN_PURCHASES_PAGE_SIZE } from '@pluma/common/constants';
import { STATUS_FILTERS } from '@pluma/common/admin-purchases';
import { listPageCount } from '../../ui/use-list-controls';
import { formatCurrency, formatSpecDateTime } from '../../i18n/format';

export function statusColor(status: string): string {
  if ((STATUS_FILTERS.successful as readonly string[]).includes(status) || status === 'succeeded') return 'green';
  if ((STATUS_FILTERS.pending as readonly string[]).includes(status)) return 'yellow';
  if (status === 'failed' || status === 'cancelled') return 'red';
  return 'gray';
}

export const formatMoney = (dollars: number, lang?: string) => formatCurrency(dollars, lang);

/** DD MMM YYYY HH:mm in the interface language (spec part 1 §9). */
export function formatDateTime(iso: string, lang: string): string {
  return formatSpecDateTime(iso, lang);
}

export const pageCount = (total: number) => listPageCount(total, ADMIN_PURCHASES_PAGE_SIZE);

/** spec part 1 §4: a gift purchase, or one with amount 0, hides the payment method. */
export const showsPaymentMethod = (row: { is_gift: boolean; amount: number }) => !row.is_gift && row.amount !== 0;

/** spec part 1 §2: up to 5 page buttons — the pages around the current one (one on a compact screen). */
export function pageWindow(page: number, total: number, size = 5): number[] {
  const count = Math.min(size, total);
  const first = Math.min(Math.max(1, page - Math.floor(count / 2)), total - count + 1);
  return Array.from({ length: count }, (_, i) => first + i);
}
