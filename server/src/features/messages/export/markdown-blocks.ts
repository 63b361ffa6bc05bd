// The markdown of an answer as blocks for the PDF and Word exports. Parsed with the same mdast/remark
// family as the web (react-markdown + remark-gfm; DESIGN.md §2 "markdown"), so an export shows what the
// screen shows: headings, paragraphs, lists (with depth and task boxes), quotes, code, tables, rules, and
// bold/italic/strikethrough/code inline. Links print as "text (url)", images as their alt text and url.
// Raw HTML is never interpreted: it stays literal text. markdown-pieces.ts bounds the parser's work.
import type { Nodes, PhrasingContent, RootContent, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { markdownPieces } from './markdown-pieces';

export interface Inline {
  text: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  code?: boolean;
}

type Style = Omit<Inline, 'text'>;

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; inlines: Inline[] }
  /** `depth`: a further paragraph of a list item, indented like the item's text. */
  | { kind: 'paragraph'; inlines: Inline[]; depth?: number }
  | { kind: 'bullet'; depth: number; inlines: Inline[]; checked?: boolean }
  | { kind: 'ordered'; depth: number; number: number; inlines: Inline[]; checked?: boolean }
  | { kind: 'quote'; inlines: Inline[] }
  | { kind: 'code'; text: string }
  /** Rows of cells; the first row is the header. */
  | { kind: 'table'; rows: Inline[][][] }
  | { kind: 'rule' };

const sameStyle = (a: Style, b: Style) => !a.bold === !b.bold && !a.italic === !b.italic && !a.strike === !b.strike && !a.code === !b.code;

/** Appends text in a style, merging with the previous run when the style is the same. */
function push(out: Inline[], text: string, style: Style) {
  if (!text) return;
  const last = out[out.length - 1];
  if (last && sameStyle(last, style)) last.text += text;
  else out.push({ text, ...(style.bold && { bold: true }), ...(style.italic && { italic: true }), ...(style.strike && { strike: true }), ...(style.code && { code: true }) });
}

const plainText = (nodes: PhrasingContent[]): string => inlineText(phrasing(nodes));

/** A link's target is worth printing unless the text already says it (autolinks: www.x.y, a@b.c). */
function shownUrl(text: string, url: string): string {
  const bare = url.replace(/^(?:https?:\/\/|mailto:)/, '');
  return !url || text === url || text === bare ? '' : ` (${url})`;
}

/** Inline content as styled runs. Iterative: emphasis may nest as deep as the text allows. */
export function phrasing(nodes: PhrasingContent[], base: Style = {}): Inline[] {
  const out: Inline[] = [];
  const stack: Array<{ node: PhrasingContent | { type: 'suffix'; value: string }; style: Style }> = [];
  for (let i = nodes.length - 1; i >= 0; i--) stack.push({ node: nodes[i], style: base });
  while (stack.length) {
    const { node, style } = stack.pop() as (typeof stack)[number];
    const children = (list: PhrasingContent[], childStyle: Style, suffix = '') => {
      if (suffix) stack.push({ node: { type: 'suffix', value: suffix }, style });
      for (let i = list.length - 1; i >= 0; i--) stack.push({ node: list[i], style: childStyle });
    };
    switch (node.type) {
      case 'text':
        // A soft line break inside a paragraph is a space, as on screen.
        push(out, node.value.replace(/\n/g, ' '), style);
        break;
      case 'suffix':
      case 'html':
        push(out, node.value, style);
        break;
      case 'break':
        push(out, '\n', style);
        break;
      case 'inlineCode':
        push(out, node.value, { ...style, code: true });
        break;
      case 'strong':
        children(node.children, { ...style, bold: true });
        break;
      case 'emphasis':
        children(node.children, { ...style, italic: true });
        break;
      case 'delete':
        children(node.children, { ...style, strike: true });
        break;
      case 'link':
        children(node.children, style, shownUrl(plainText(node.children), node.url));
        break;
      case 'linkReference':
        children(node.children, style);
        break;
      case 'image':
        push(out, node.alt ? `${node.alt}${shownUrl(node.alt, node.url)}` : node.url, style);
        break;
      case 'imageReference':
        push(out, node.alt ?? '', style);
        break;
      case 'footnoteReference':
        push(out, `[^${node.label ?? node.identifier}]`, style);
        break;
    }
  }
  return out;
}

interface Context {
  /** Depth a list opened here gets. */
  listDepth: number;
  /** Paragraphs continue a list item at this depth. */
  itemDepth?: number;
  quote: boolean;
}

function tableRows(node: Table): Inline[][][] {
  return node.children.map((row) => row.children.map((cell) => phrasing(cell.children)));
}

/** Appends the blocks of `nodes`. Recursion depth is bounded by the container nesting (markdown-pieces.ts). */
function addBlocks(nodes: RootContent[], context: Context, out: Block[]) {
  for (const node of nodes) {
    switch (node.type) {
      case 'heading':
        out.push(context.quote ? { kind: 'quote', inlines: phrasing(node.children, { bold: true }) } : { kind: 'heading', level: node.depth, inlines: phrasing(node.children) });
        break;
      case 'paragraph': {
        const inlines = phrasing(node.children);
        if (context.quote) out.push({ kind: 'quote', inlines });
        else out.push(context.itemDepth === undefined ? { kind: 'paragraph', inlines } : { kind: 'paragraph', inlines, depth: context.itemDepth });
        break;
      }
      case 'html':
        // Raw HTML stays literal text (DESIGN.md §6: rendered markdown never includes raw HTML).
        out.push(context.quote ? { kind: 'quote', inlines: [{ text: node.value }] } : { kind: 'paragraph', inlines: [{ text: node.value }] });
        break;
      case 'blockquote':
        addBlocks(node.children, { ...context, quote: true }, out);
        break;
      case 'list':
        node.children.forEach((item, index) => {
          const [first, ...rest] = item.children;
          const lead = first?.type === 'paragraph' ? phrasing(first.children) : [];
          const checked = typeof item.checked === 'boolean' ? { checked: item.checked } : {};
          out.push(
            node.ordered
              ? { kind: 'ordered', depth: context.listDepth, number: (node.start ?? 1) + index, inlines: lead, ...checked }
              : { kind: 'bullet', depth: context.listDepth, inlines: lead, ...checked },
          );
          const inner = { listDepth: context.listDepth + 1, itemDepth: context.listDepth, quote: context.quote };
          addBlocks(first?.type === 'paragraph' ? rest : item.children, inner, out);
        });
        break;
      case 'code':
        out.push({ kind: 'code', text: node.value });
        break;
      case 'table':
        out.push({ kind: 'table', rows: tableRows(node) });
        break;
      case 'thematicBreak':
        out.push({ kind: 'rule' });
        break;
      case 'footnoteDefinition': {
        const blocks: Block[] = [];
        addBlocks(node.children, context, blocks);
        const head = blocks[0];
        if (head && 'inlines' in head) head.inlines.unshift({ text: `[^${node.label ?? node.identifier}]: ` });
        out.push(...blocks);
        break;
      }
      // definitions (link targets) print nothing; other node types do not occur with GFM.
    }
  }
}

export function parseMarkdown(markdown: string): Nodes {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

export function markdownBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const piece of markdownPieces(markdown)) {
    const root = parseMarkdown(piece.text);
    const start = blocks.length;
    if (root.type === 'root') addBlocks(root.children, { listDepth: 0, quote: false }, blocks);
    // A table cut between pieces: the rows join the previous piece's table, without the repeated header.
    const first = blocks[start];
    const previous = blocks[start - 1];
    if (piece.continuesTable && first?.kind === 'table' && previous?.kind === 'table') {
      previous.rows.push(...first.rows.slice(1));
      blocks.splice(start, 1);
    }
  }
  return blocks;
}

/** Plain text of inlines (table cells, titles). */
export function inlineText(inlines: Inline[]): string {
  return inlines.map((i) => i.text).join('');
}
