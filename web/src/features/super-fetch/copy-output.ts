// Copying an output (issue 30 item 2): the rendered output as text/html (it pastes formatted into a mail or
// a document) and its clean text as text/plain (no markdown marks: markdown-text.ts). Where the browser
// has no rich clipboard, the clean text alone.
import { i18n } from '../../i18n';
import { showError, showSuccess } from '../../ui/alerts';
import { copyToClipboard } from '../../ui/clipboard';

export async function copyOutput(html: string, text: string, successMessage: string): Promise<boolean> {
  if (typeof ClipboardItem === 'undefined' || !navigator.clipboard?.write) return copyToClipboard(text, successMessage);
  try {
    await navigator.clipboard.write([
      new ClipboardItem({
        'text/html': new Blob([html], { type: 'text/html' }),
        'text/plain': new Blob([text], { type: 'text/plain' }),
      }),
    ]);
    showSuccess(successMessage);
    return true;
  } catch {
    // Refused (permissions, an unsupported type): the clean text through the plain path, with its own notices.
    return copyToClipboard(text, successMessage).catch(() => {
      showError(i18n.t('clipboard.failed'));
      return false;
    });
  }
}
