// Splits an answer into top-level markdown blocks so a streaming answer re-renders only its last, growing
// block: the blocks before it never change again and are memoized by their text (MessageMarkdown.tsx).

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const BLANK = /^[ \t]*\r?\n?$/;
/** Link reference and footnote definitions resolve across the whole document, so such text is kept whole. */
const DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

/**
 * Returns blocks whose concatenation is exactly `text`. A block ends at blank lines outside a code fence
 * when the next line starts at the margin (an indented line continues the list item or code above it).
 */
export function splitMarkdownBlocks(text: string): string[] {
  if (text === '') return [];
  if (DEFINITION.test(text)) return [text];
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [text];
  const blocks: string[] = [];
  let current = '';
  let fence: { char: string; length: number } | null = null;
  let afterBlank = false;

  for (const line of lines) {
    if (fence) {
      current += line;
      const close = line.match(FENCE);
      if (close && close[1][0] === fence.char && close[1].length >= fence.length && line.slice(line.indexOf(close[1]) + close[1].length).trim() === '') {
        fence = null;
      }
      continue;
    }
    const blank = BLANK.test(line);
    if (!blank && afterBlank && current.trim() !== '' && !/^[ \t]/.test(line)) {
      blocks.push(current);
      current = '';
    }
    afterBlank = blank;
    current += line;
    const open = line.match(FENCE);
    // A backtick fence's info string may not contain backticks (CommonMark), else it is inline code.
    if (open && !(open[1][0] === '`' && line.slice(line.indexOf(open[1]) + open[1].length).includes('`'))) {
      fence = { char: open[1][0], length: open[1].length };
    }
  }
  if (current) blocks.push(current);
  return blocks;
}

/** True when the text has a fenced code block (the highlighter is loaded only then). */
export function hasCodeFence(text: string): boolean {
  return /^ {0,3}(```|~~~)/m.test(text);
}
