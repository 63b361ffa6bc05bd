// Streaming generated markdown into the block editor (issue 15 item 1: "streaming in as it is written
// (finished blocks committed, only the trailing block re-parsed, throttled — never the whole document per
// token)"). The markdown so far is split into finished text and the trailing block; finished text is
// parsed once, inserted once and never touched again; only the trailing block's blocks are replaced on each
// render. Framework-free: the hook (use-document-generation.ts) throttles the renders.

/** The part of BlockNote's editor this needs (BlockNoteEditor satisfies it; tests pass a fake). */
export interface StreamBlock {
  id: string;
  type: string;
  content?: unknown;
}
export interface StreamEditor {
  readonly document: StreamBlock[];
  tryParseMarkdownToBlocks(markdown: string): unknown[];
  insertBlocks(blocks: unknown[], reference: string, placement: 'before' | 'after'): StreamBlock[];
  replaceBlocks(remove: string[], insert: unknown[]): { insertedBlocks: StreamBlock[] };
  removeBlocks(remove: string[]): unknown;
  getBlock(id: string): StreamBlock | undefined;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Splits markdown at the last blank line that ends a block: outside a ``` / ~~~ fence, and followed by a
 * line that starts at the margin (an indented line after a blank one still belongs to the list item or
 * paragraph before it, so that boundary is not final yet). Tables have no blank lines inside, so a table
 * stays in the trailing block until a blank line and new text follow it.
 */
export function splitMarkdown(markdown: string): { finished: string; trailing: string } {
  let inFence: string | null = null;
  let boundary = 0;
  let offset = 0;
  let blankAt: number | null = null;
  const lines = markdown.split('\n');
  lines.forEach((line, index) => {
    const complete = index < lines.length - 1;
    const start = offset;
    offset += line.length + 1;
    if (inFence !== null) {
      const close = FENCE.exec(line);
      if (close && close[1][0] === inFence[0] && close[1].length >= inFence.length && line.trim() === close[1] && complete) inFence = null;
      return;
    }
    if (line.trim() === '') {
      // Only a complete blank line counts (the last, unfinished line may still get text).
      if (complete && blankAt === null) blankAt = start;
      return;
    }
    if (blankAt !== null && !/^\s/.test(line)) boundary = start;
    blankAt = null;
    const open = FENCE.exec(line);
    if (open && !(open[1][0] === '`' && line.slice(open.index + open[0].length).includes('`'))) inFence = open[1];
  });
  return { finished: markdown.slice(0, boundary), trailing: markdown.slice(boundary) };
}

const isEmptyParagraph = (block: StreamBlock) => block.type === 'paragraph' && (!Array.isArray(block.content) || block.content.length === 0);

/** One generation written into the editor. */
export class MarkdownStream {
  private markdown = '';
  private committedLength = 0;
  private committedIds: string[] = [];
  private trailingIds: string[] = [];
  private rendered: string | null = null;

  constructor(
    private readonly editor: StreamEditor,
    /** Blocks an earlier view of this same generation left in the document (a reload mid-stream): replaced. */
    leftovers: readonly string[] = [],
  ) {
    const present = leftovers.filter((id) => editor.getBlock(id));
    if (present.length > 0) editor.removeBlocks(present);
  }

  /** The markdown received so far. */
  get text() {
    return this.markdown;
  }

  /** Every block this stream inserted that is still in the document (kept for a reload mid-stream). */
  get blockIds(): string[] {
    return [...this.committedIds, ...this.trailingIds].filter((id) => this.editor.getBlock(id));
  }

  append(delta: string) {
    this.markdown += delta;
  }

  /**
   * The whole markdown (the last frame, or the saved row after a reload). When it does not continue what
   * was committed (frames were missed), this stream's blocks are written again from it — only them.
   */
  setText(markdown: string) {
    if (!markdown.startsWith(this.markdown.slice(0, this.committedLength))) {
      const mine = this.blockIds;
      if (mine.length > 0) this.editor.removeBlocks(mine);
      this.committedIds = [];
      this.trailingIds = [];
      this.committedLength = 0;
      this.rendered = null;
    }
    this.markdown = markdown;
  }

  /** Brings the editor up to the markdown so far; `final` commits the trailing block too. */
  render(final = false) {
    const key = `${final ? 1 : 0}${this.markdown}`;
    if (key === this.rendered) return;
    this.rendered = key;
    const { finished, trailing } = final ? { finished: this.markdown, trailing: '' } : splitMarkdown(this.markdown);
    const fresh = finished.slice(this.committedLength);
    const committed = fresh.trim() ? this.editor.tryParseMarkdownToBlocks(fresh) : [];
    const tail = trailing.trim() ? this.editor.tryParseMarkdownToBlocks(trailing) : [];
    const next = [...committed, ...tail];
    const live = this.trailingIds.filter((id) => this.editor.getBlock(id));
    let inserted: StreamBlock[] = [];
    if (live.length > 0) inserted = this.editor.replaceBlocks(live, next).insertedBlocks;
    else if (next.length > 0) inserted = this.insert(next);
    this.committedIds.push(...inserted.slice(0, committed.length).map((block) => block.id));
    this.trailingIds = inserted.slice(committed.length).map((block) => block.id);
    this.committedLength = finished.length;
  }

  /** After this stream's last block, else at the end of the document (before its empty last paragraph). */
  private insert(blocks: unknown[]): StreamBlock[] {
    const after = [...this.committedIds].reverse().find((id) => this.editor.getBlock(id));
    if (after) return this.editor.insertBlocks(blocks, after, 'after');
    const document = this.editor.document;
    const last = document.at(-1);
    if (!last) return [];
    if (isEmptyParagraph(last)) return this.editor.insertBlocks(blocks, last.id, 'before');
    return this.editor.insertBlocks(blocks, last.id, 'after');
  }
}
