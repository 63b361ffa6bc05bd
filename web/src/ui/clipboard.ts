// Copy to clipboard with the spec's notices (part 1 §8, part 2 §8).
import { i18n } from '../i18n';
import { showError, showSuccess } from './alerts';

/** Copies `text`; shows `successMessage` (default: a general notice) or the spec's failure text. */
export async function copyToClipboard(text: string, successMessage?: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
    } else if (!legacyCopy(text)) {
      throw new Error('copy command refused');
    }
    showSuccess(successMessage ?? i18n.t('clipboard.copied'));
    return true;
  } catch {
    showError(i18n.t('clipboard.failed'));
    return false;
  }
}

/** Older browsers and non-secure origins (plain http on a LAN) have no async clipboard API. */
function legacyCopy(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } finally {
    area.remove();
  }
}
