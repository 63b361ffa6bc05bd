// Pure pieces of the analytics pages: money as the spec shows it (§9 USD, 2 decimals), chart colours and
// each slice's share.
export const formatMoney = (dollars: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(dollars);

export const formatNumber = (value: number, lang: string) => new Intl.NumberFormat(lang).format(value);

const PALETTE = ['violet.6', 'teal.6', 'orange.6', 'blue.6', 'pink.6', 'lime.7', 'cyan.7', 'grape.6', 'yellow.7', 'red.6'];
export const chartColor = (index: number) => PALETTE[index % PALETTE.length];

/** A part of a whole, as a percentage with one decimal ("0.0 %" when the whole is 0). */
export function sharePercent(part: number, whole: number, lang: string): string {
  const share = whole > 0 ? part / whole : 0;
  return new Intl.NumberFormat(lang, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(share);
}

/** DD MMM YYYY (spec part 1 §9 date format, without the time for a day). */
export function formatDay(iso: string, lang: string): string {
  const d = new Date(iso);
  const month = new Intl.DateTimeFormat(lang, { month: 'short' }).format(d).replace('.', '');
  return `${String(d.getDate()).padStart(2, '0')} ${month} ${d.getFullYear()}`;
}
