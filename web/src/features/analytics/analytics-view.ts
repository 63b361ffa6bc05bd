// Pure pieces of the analytics pages: money as the spec shows it (§9 USD, 2 decimals), chart colours and
// each slice's share.
import { formatCurrency, formatNumber, formatPercent, formatSpecDay } from '../../i18n/format';
export const formatMoney = (dollars: number, lang?: string) => formatCurrency(dollars, lang);

export { formatNumber };

const PALETTE = ['violet.6', 'teal.6', 'orange.6', 'blue.6', 'pink.6', 'lime.7', 'cyan.7', 'grape.6', 'yellow.7', 'red.6'];
export const chartColor = (index: number) => PALETTE[index % PALETTE.length];

/** A part of a whole, as a percentage with one decimal ("0.0 %" when the whole is 0). */
export function sharePercent(part: number, whole: number, lang: string): string {
  const share = whole > 0 ? part / whole : 0;
  return formatPercent(share, lang);
}

/** DD MMM YYYY (spec part 1 §9 date format, without the time for a day). */
export function formatDay(iso: string, lang: string): string {
  return formatSpecDay(iso, lang);
}
