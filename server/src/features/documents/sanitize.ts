// What a document may hold (DESIGN.md §6 "stored HTML is sanitized"; Open WebUI's stored XSS): the HTML is
// re-sanitized with sanitize-html on every write — whatever the browser sent — and the blocks (the truth,
// which the editor renders) lose any link or media URL that is not http(s), mailto or a same-site path.
import type { DocumentBlock, DocumentInline } from '@pluma/common/documents';
import sanitizeHtml from 'sanitize-html';

/** The tags BlockNote's HTML rendering produces, and nothing else. */
const ALLOWED_TAGS = [
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'br', 'hr', 'strong', 'b', 'em', 'i', 'u', 's', 'del', 'code', 'pre',
  'blockquote', 'a', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'colgroup', 'col', 'img',
  'figure', 'figcaption', 'span', 'div', 'input', 'details', 'summary',
];

const HTML_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'width'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    ol: ['start'],
    col: ['span'],
    input: ['type', 'checked', 'disabled'],
    pre: ['data-language'],
    code: ['data-language'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Only check boxes survive as inputs (BlockNote renders check-list items with one).
  exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'noopener noreferrer nofollow', target: '_blank' } }),
  },
};
// The transform adds rel/target after filtering; let them through.
(HTML_OPTIONS.allowedAttributes as Record<string, string[]>).a.push('rel', 'target');

export function sanitizeDocumentHtml(html: string): string {
  return sanitizeHtml(html, HTML_OPTIONS);
}

/** http(s), mailto, tel or a path on this site; anything else (javascript:, data:, vbscript:…) is unsafe. */
export function isSafeUrl(url: unknown, { media = false } = {}): url is string {
  if (typeof url !== 'string') return false;
  const trimmed = url.trim();
  if (trimmed === '') return true;
  if (trimmed.startsWith('/') && !trimmed.startsWith('//') && !trimmed.startsWith('/\\')) return true;
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return false;
  }
  const schemes = media ? ['http:', 'https:'] : ['http:', 'https:', 'mailto:', 'tel:'];
  return schemes.includes(parsed.protocol);
}

const MEDIA_URL_PROPS = ['url', 'previewUrl', 'src'];

function cleanInline(items: DocumentInline[]): DocumentInline[] {
  return items.flatMap((item): DocumentInline[] => {
    if (item.type === 'link') {
      const link = item as { href?: unknown; content?: DocumentInline[] };
      const content = Array.isArray(link.content) ? link.content : [];
      // An unsafe link keeps its words as plain text.
      return isSafeUrl(link.href) ? [{ ...item, content: cleanInline(content) } as DocumentInline] : cleanInline(content);
    }
    return [item];
  });
}

/** The blocks with unsafe link and media URLs removed (their text kept). */
export function sanitizeBlocks(blocks: DocumentBlock[]): DocumentBlock[] {
  return blocks.map((block) => {
    const next: DocumentBlock = { ...block };
    if (block.props) {
      const props = { ...block.props };
      for (const key of MEDIA_URL_PROPS) if (key in props && !isSafeUrl(props[key], { media: true })) props[key] = '';
      next.props = props;
    }
    if (Array.isArray(block.content)) next.content = cleanInline(block.content);
    else if (block.content && block.content.type === 'tableContent') {
      next.content = {
        ...block.content,
        rows: (block.content.rows ?? []).map((row) => ({
          ...row,
          cells: (row?.cells ?? []).map((cell) =>
            Array.isArray(cell) ? cleanInline(cell) : cell && typeof cell === 'object' ? { ...cell, content: cleanInline(Array.isArray(cell.content) ? cell.content : []) } : [],
          ),
        })),
      };
    }
    if (Array.isArray(block.children)) next.children = sanitizeBlocks(block.children);
    return next;
  });
}

/** The words of the document, one line per block (shared with the web: common/src/documents.ts). */
export { documentPlainText as plainTextOf } from '@pluma/common/documents';
