// A document's stored HTML shown read-only (the campaign document view, spec part 2 §2 "Campaign document
// page: Document (read-only HTML …)"). The server sanitized it on write; it is sanitized again here with
// DOMPurify before it reaches the page (DESIGN.md §6: stored HTML is sanitized on write and on render), with
// the same allow-list: BlockNote's tags, http(s)/mailto/tel links opening apart, http(s) images.
import { Typography } from '@mantine/core';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';

const ALLOWED_TAGS = [
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'br', 'hr', 'strong', 'b', 'em', 'i', 'u', 's', 'del', 'code', 'pre',
  'blockquote', 'a', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'colgroup', 'col', 'img',
  'figure', 'figcaption', 'span', 'div', 'input', 'details', 'summary',
];
const ALLOWED_ATTR = ['href', 'title', 'src', 'alt', 'width', 'colspan', 'rowspan', 'start', 'span', 'type', 'checked', 'disabled', 'data-language'];
const SAFE_URL = /^(?:https?:|mailto:|tel:|\/(?!\/))/i;

let hooked = false;
function purifier() {
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node instanceof HTMLAnchorElement) {
        if (!SAFE_URL.test(node.getAttribute('href') ?? '')) node.removeAttribute('href');
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
      }
      if (node instanceof HTMLImageElement && !/^https?:/i.test(node.getAttribute('src') ?? '')) node.removeAttribute('src');
      // Check boxes are shown, never edited; other inputs are not content.
      if (node instanceof HTMLInputElement) {
        if (node.type !== 'checkbox') node.remove();
        else node.setAttribute('disabled', '');
      }
    });
    hooked = true;
  }
  return DOMPurify;
}

/** The HTML made safe to insert (exported for tests and for any other read-only view). */
export function sanitizeDocumentHtml(html: string): string {
  return purifier().sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOW_DATA_ATTR: false });
}

export function DocumentHtml({ html, 'data-testid': testId }: { html: string; 'data-testid'?: string }) {
  const safe = useMemo(() => sanitizeDocumentHtml(html), [html]);
  return (
    <Typography>
      <div data-testid={testId} dangerouslySetInnerHTML={{ __html: safe }} />
    </Typography>
  );
}
