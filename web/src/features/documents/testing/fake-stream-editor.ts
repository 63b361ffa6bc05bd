// A stand-in for BlockNote in jsdom tests (it needs layout APIs jsdom lacks): a flat list of blocks whose
// markdown "parser" makes one block per chunk between blank lines, and a log of every parse and edit, so
// tests can check what was parsed, inserted and replaced. Used by markdown-stream.test.ts and the page tests.
import type { StreamBlock, StreamEditor } from '../markdown-stream';

export interface FakeBlock extends StreamBlock {
  content: { type: 'text'; text: string; styles: Record<string, never> }[];
}

let counter = 0;

export class FakeStreamEditor implements StreamEditor {
  blocks: FakeBlock[];
  parsed: string[] = [];
  log: string[] = [];

  constructor(texts: string[] = []) {
    this.blocks = texts.map((text) => this.block(text));
  }

  get document() {
    return this.blocks;
  }

  /** The document as text: one line per block. */
  get text() {
    return this.blocks.map((b) => b.content.map((c) => c.text).join('')).join('\n');
  }

  block(text: string, type = 'paragraph'): FakeBlock {
    counter += 1;
    return { id: `b${counter}`, type, content: text ? [{ type: 'text', text, styles: {} }] : [] };
  }

  tryParseMarkdownToBlocks(markdown: string) {
    this.parsed.push(markdown);
    return markdown
      .split(/\n[ \t]*\n/)
      .map((chunk) => chunk.trim())
      .filter(Boolean)
      .map((chunk) => this.block(chunk, chunk.startsWith('|') ? 'table' : 'paragraph'));
  }

  insertBlocks(blocks: unknown[], reference: string, placement: 'before' | 'after') {
    const at = this.blocks.findIndex((b) => b.id === reference);
    if (at < 0) throw new Error(`no block ${reference}`);
    const inserted = blocks as FakeBlock[];
    this.blocks.splice(placement === 'after' ? at + 1 : at, 0, ...inserted);
    this.log.push(`insert ${inserted.length} ${placement} ${reference}`);
    return inserted;
  }

  replaceBlocks(remove: string[], insert: unknown[]) {
    const at = this.blocks.findIndex((b) => remove.includes(b.id));
    if (at < 0) throw new Error('nothing to replace');
    this.blocks = this.blocks.filter((b) => !remove.includes(b.id));
    const inserted = insert as FakeBlock[];
    this.blocks.splice(at, 0, ...inserted);
    this.log.push(`replace ${remove.length} with ${inserted.length}`);
    return { insertedBlocks: inserted };
  }

  removeBlocks(remove: string[]) {
    this.blocks = this.blocks.filter((b) => !remove.includes(b.id));
    this.log.push(`remove ${remove.length}`);
    return [];
  }

  getBlock(id: string) {
    return this.blocks.find((b) => b.id === id);
  }
}
