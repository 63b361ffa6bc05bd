// The markdown of an answer as blocks for the PDF and Word exports: headings, lists, paragraphs, quotes,
// code and tables, with bold/italic/code inline. Raw HTML is never interpreted (it stays literal text).

export interface Inline {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
}

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; inlines: Inline[] }
  | { kind: 'paragraph'; inlines: Inline[] }
  | { kind: 'bullet'; depth: number; inlines: Inline[] }
  | { kind: 'ordered'; depth: number; number: number; inlines: Inline[] }
  | { kind: 'quote'; inlines: Inline[] }
  | { kind: 'code'; text: string }
  | { kind: 'table'; rows: string[][] }
  | { kind: 'rule' };

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^(\s*)[-*+]\s+(?:\[[ xX]\]\s+)?(.*)$/;
const ORDERED = /^(\s*)(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;
const FENCE = /^\s*(```|~~~)/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_DIVIDER = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

/** Bold (**, __), italic (*, _) and `code`; links become "text (url)". */
export function parseInlines(text: string): Inline[] {
  const source = text.replace(/!?\[([^\]]*)\]\(([^)\s]+)\)/g, (_, label: string, url: string) => (label ? `${label} (${url})` : url));
  const out: Inline[] = [];
  const pattern = /(`+)([^`]+?)\1|\*\*([^*]+?)\*\*|__([^_]+?)__|\*([^*\s][^*]*?)\*|(?<![\w])_([^_\s][^_]*?)_(?![\w])|~~([^~]+?)~~/g;
  let last = 0;
  for (const match of source.matchAll(pattern)) {
    const index = match.index ?? 0;
    if (index > last) out.push({ text: source.slice(last, index) });
    if (match[2] !== undefined) out.push({ text: match[2], code: true });
    else if (match[3] !== undefined || match[4] !== undefined) out.push({ text: (match[3] ?? match[4]) as string, bold: true });
    else if (match[5] !== undefined || match[6] !== undefined) out.push({ text: (match[5] ?? match[6]) as string, italic: true });
    else out.push({ text: match[7] as string });
    last = index + match[0].length;
  }
  if (last < source.length) out.push({ text: source.slice(last) });
  return out.filter((i) => i.text.length > 0);
}

const depthOf = (indent: string) => Math.min(4, Math.floor(indent.replace(/\t/g, '  ').length / 2));

function tableCells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());
}

export function markdownBlocks(markdown: string): Block[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', inlines: parseInlines(paragraph.join(' ')) });
    paragraph = [];
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim()) {
      endParagraph();
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      endParagraph();
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence[1]); i++) code.push(lines[i]);
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    if (TABLE_ROW.test(line) && i + 1 < lines.length && TABLE_DIVIDER.test(lines[i + 1])) {
      endParagraph();
      const rows = [tableCells(line)];
      for (i += 2; i < lines.length && TABLE_ROW.test(lines[i]); i++) rows.push(tableCells(lines[i]));
      i--;
      blocks.push({ kind: 'table', rows });
      continue;
    }
    let match: RegExpExecArray | null;
    if ((match = HEADING.exec(line))) {
      endParagraph();
      blocks.push({ kind: 'heading', level: match[1].length as 1 | 2 | 3 | 4 | 5 | 6, inlines: parseInlines(match[2]) });
    } else if (RULE.test(line)) {
      endParagraph();
      blocks.push({ kind: 'rule' });
    } else if ((match = BULLET.exec(line))) {
      endParagraph();
      blocks.push({ kind: 'bullet', depth: depthOf(match[1]), inlines: parseInlines(match[2]) });
    } else if ((match = ORDERED.exec(line))) {
      endParagraph();
      blocks.push({ kind: 'ordered', depth: depthOf(match[1]), number: Number(match[2]), inlines: parseInlines(match[3]) });
    } else if ((match = QUOTE.exec(line))) {
      endParagraph();
      blocks.push({ kind: 'quote', inlines: parseInlines(match[1]) });
    } else {
      paragraph.push(line.trim());
    }
  }
  endParagraph();
  return blocks;
}

/** Plain text of inlines (table cells, titles). */
export function inlineText(inlines: Inline[]): string {
  return inlines.map((i) => i.text).join('');
}
