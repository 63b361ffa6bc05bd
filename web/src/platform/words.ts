import { UNLIMITED_WORDS } from '@pluma/common/constants';

/** spec part 1 §3: available_words of 1000000 means unlimited. */
export function isUnlimitedWords(words: number): boolean {
  return words >= UNLIMITED_WORDS;
}

export { formatNumber } from '../i18n/format';
