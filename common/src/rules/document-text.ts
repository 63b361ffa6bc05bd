// A document's limits and plain text (spec part 2 §2, §5, §9), apart from the request schemas of
// documents.ts and documents-generate.ts (which re-export them): the editor route needs these at once,
// zod's schemas not at all (issue 31 item 5: the route's first load).
import type { DocumentBlock, DocumentInline } from '../documents';

/** spec part 2 §5, §9: the content must be shorter than 65000 characters. */
export const DOCUMENT_CONTENT_LIMIT = 65_000;
export const DOCUMENT_NAME_MAX = 200;
/** The placeholder of a new document's empty first heading (spec part 2 §2); never its content. */
export const DOCUMENT_FIRST_HEADING = { en: 'Start writing here!', es: '¡Empieza a escribir aquí!' } as const;
/** The editor's plain text sent as context (cut from its start to fit the model's room, server side). */
export const DOCUMENT_GENERATE_TEXT_MAX = 200_000;

function inlineText(items: DocumentInline[] | undefined): string {
  if (!Array.isArray(items)) return '';
  return items
    .map((item) => {
      if (item.type === 'text') return String((item as { text?: unknown }).text ?? '');
      if (item.type === 'link') return inlineText((item as { content?: DocumentInline[] }).content);
      return '';
    })
    .join('');
}

/** The words of a document, one line per block, table cells tab-separated (search, excerpts, AI context). */
export function documentPlainText(blocks: DocumentBlock[]): string {
  const lines: string[] = [];
  const walk = (list: DocumentBlock[]) => {
    for (const block of list) {
      if (Array.isArray(block.content)) lines.push(inlineText(block.content));
      else if (block.content?.type === 'tableContent') {
        for (const row of block.content.rows ?? []) {
          lines.push((row?.cells ?? []).map((cell) => inlineText(Array.isArray(cell) ? cell : cell?.content)).join('\t'));
        }
      }
      if (Array.isArray(block.children)) walk(block.children);
    }
  };
  walk(blocks);
  return lines.join('\n').trim();
}
