// Clean text of a Super Fetch output (issue 30 item 2): the model writes markdown, which the page renders
// like the chat; the plain-text copy and the xlsx get the text without its marks — no `###`, `**` or code
// fences; a table becomes one line per row with its cells separated by tabs; list items keep a bullet or
// their number. Parsed with the same markdown dialect the chat renders (remark + GFM).
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

const parser = unified().use(remarkParse).use(remarkGfm);
type Root = ReturnType<typeof parser.parse>;
type Node = Root | Root['children'][number] | { type: string; value?: string; alt?: string | null; children?: Node[] };

interface ListNode {
  type: 'list';
  ordered?: boolean | null;
  start?: number | null;
  children: Node[];
}

const childrenOf = (node: Node): Node[] => ('children' in node && Array.isArray(node.children) ? (node.children as Node[]) : []);

/** The text of inline content (emphasis, links, code spans... keep their text; an image its alt text). */
function inline(node: Node): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
    case 'html':
      return 'value' in node ? String(node.value ?? '') : '';
    case 'break':
      return '\n';
    case 'image':
    case 'imageReference':
      return 'alt' in node ? String(node.alt ?? '') : '';
    default:
      return childrenOf(node).map(inline).join('');
  }
}

/** One block as text; nested blocks (list items' paragraphs, quotes) are joined by single line breaks. */
function block(node: Node): string {
  switch (node.type) {
    case 'heading':
    case 'paragraph':
      return inline(node);
    case 'code':
    case 'html':
      return 'value' in node ? String(node.value ?? '') : '';
    case 'thematicBreak':
    case 'definition':
      return '';
    case 'list': {
      const list = node as unknown as ListNode;
      const first = list.start ?? 1;
      return list.children
        .map((item, index) => {
          const marker = list.ordered ? `${first + index}. ` : '• ';
          const text = childrenOf(item).map(block).filter(Boolean).join('\n');
          return marker + text.replace(/\n/g, '\n  ');
        })
        .join('\n');
    }
    case 'table':
      return childrenOf(node)
        .map((row) =>
          childrenOf(row)
            .map((cell) => inline(cell).replace(/\s*\n\s*/g, ' ').trim())
            .join('\t'),
        )
        .join('\n');
    default:
      return childrenOf(node).length ? childrenOf(node).map(block).filter(Boolean).join('\n') : inline(node);
  }
}

/** The text of markdown without its marks: blocks separated by a blank line. */
export function markdownToPlainText(markdown: string): string {
  const root = parser.parse(markdown);
  return root.children
    .map((node) => block(node as Node))
    .filter((text) => text.trim() !== '')
    .join('\n\n')
    .trim();
}
