// Headings inside an answer sit under the page's own h1 (the conversation's name): a markdown "# Title"
// becomes an h2, and no heading is more than one level below the heading before it, so the page's
// headings go h1 → h2 → h3 without skipping (WCAG 1.3.1; axe "heading-order"). Each heading keeps the
// look of its markdown level (data-md-level, Chat.module.css). An answer is rendered block by block
// (markdown-blocks.ts), so the level a block starts after is worked out from the blocks before it.

/** The page heading the answers sit under: the conversation's name (ConversationPage.tsx). */
export const PAGE_HEADING_LEVEL = 1;
const MAX_LEVEL = 6;

/** The level a markdown heading of `level` is shown at when the heading before it is at `previous`. */
export function headingLevel(level: number, previous: number): number {
  return Math.min(level + PAGE_HEADING_LEVEL, previous + 1, MAX_LEVEL);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]|$)/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
/** A line that can be the text of a setext heading (not a list item, quote, fence or indented code). */
const SETEXT_TEXT = /^ {0,3}(?![-*+>#]|\d+[.)])\S/;

/** The markdown levels of the headings at the top level of a block, in order (code fences skipped). */
export function blockHeadingLevels(block: string): number[] {
  const levels: number[] = [];
  let fence: string | null = null;
  let previousLine = '';
  for (const line of block.split('\n')) {
    const fenceMark = FENCE.exec(line)?.[1];
    if (fence) {
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = null;
      previousLine = '';
      continue;
    }
    if (fenceMark) {
      fence = fenceMark;
      previousLine = '';
      continue;
    }
    const atx = ATX.exec(line);
    const setext = SETEXT.exec(line);
    if (atx) levels.push(atx[1].length);
    else if (setext && SETEXT_TEXT.test(previousLine)) levels.push(setext[1][0] === '=' ? 1 : 2);
    previousLine = atx ? '' : line;
  }
  return levels;
}

/** For each block, the shown level of the last heading before it (the page heading before the first). */
export function headingStarts(blocks: readonly string[]): number[] {
  let previous = PAGE_HEADING_LEVEL;
  return blocks.map((block) => {
    const start = previous;
    for (const level of blockHeadingLevels(block)) previous = headingLevel(level, previous);
    return start;
  });
}

interface HastNode {
  type: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

/**
 * rehype plugin: renumbers a block's h1–h6 in document order with `headingLevel`, starting after a
 * heading at `previous`, and marks each with its markdown level (data-md-level).
 */
export function rehypeHeadingLevels({ previous }: { previous: number }) {
  return (tree: HastNode) => {
    let last = previous;
    const walk = (node: HastNode) => {
      const match = node.type === 'element' ? /^h([1-6])$/.exec(node.tagName ?? '') : null;
      if (match) {
        const level = Number(match[1]);
        last = headingLevel(level, last);
        node.tagName = `h${last}`;
        node.properties = { ...node.properties, dataMdLevel: level };
      }
      node.children?.forEach(walk);
    };
    walk(tree);
  };
}
