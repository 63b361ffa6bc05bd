import { UNLIMITED_WORDS } from '@pluma/common/constants';

/** spec part 1 §3: available_words of 1000000 means unlimited. */
export function isUnlimitedWords(words: number): boolean {
  return words >= UNLIMITED_WORDS;
}

export function formatNumber(value: number, lang: string): string {
  return new Intl.NumberFormat(lang === 'es' ? 'es-MX' : 'en-US').format(value);
}
