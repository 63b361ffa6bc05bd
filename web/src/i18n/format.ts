// The one place numbers, money and dates are formatted for people: Intl with the interface language
// (en or es), so "7500" reads "7,500" in English and "7500" / "1.234.567" in Spanish. A test keeps
// toLocaleString() and hard-coded locales out of the rest of web/src.
import { currentLanguage } from './index';

type Value = number | string | Date;
const toDate = (value: Value) => (value instanceof Date ? value : new Date(value));
const pad = (n: number) => String(n).padStart(2, '0');

export function formatNumber(value: number, lang: string = currentLanguage(), options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(lang, options).format(value);
}

/**
 * spec part 1 §9: USD with thousands separators and 2 decimals, written as US dollars are ("$1,234.50") in
 * both languages: Spanish Intl gives "1234,50 US$", beside which screens already say "USD".
 */
export function formatCurrency(dollars: number, _lang?: string): string {
  return formatNumber(dollars, 'en', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** A share of a whole (0..1) as a percentage with one decimal. */
export function formatPercent(share: number, lang: string = currentLanguage()): string {
  return formatNumber(share, lang, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** "Nov 28, 2026" / "28 nov 2026". */
export function formatDate(value: Value, lang: string = currentLanguage(), options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  return new Intl.DateTimeFormat(lang, options).format(toDate(value));
}

/** Date and time, e.g. in lists. */
export function formatDateTime(value: Value, lang: string = currentLanguage()): string {
  return formatDate(value, lang, { dateStyle: 'medium', timeStyle: 'short' });
}

/** spec part 1 §9: DD MMM YYYY (the day of a DD MMM YYYY HH:mm date), month in the interface language. */
export function formatSpecDay(value: Value, lang: string = currentLanguage()): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return '';
  const month = new Intl.DateTimeFormat(lang, { month: 'short' }).format(d).replace(/\.$/, '');
  return `${pad(d.getDate())} ${month} ${d.getFullYear()}`;
}

/** spec part 1 §9: DD MMM YYYY HH:mm (local time). */
export function formatSpecDateTime(value: Value, lang: string = currentLanguage()): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${formatSpecDay(d, lang)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
