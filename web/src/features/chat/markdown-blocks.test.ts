import { describe, expect, it } from 'vitest';
import { hasCodeFence, splitMarkdownBlocks } from './markdown-blocks';

describe('splitMarkdownBlocks', () => {
  it('splits top-level blocks at blank lines and loses no character', () => {
    const text = '# Title\n\nFirst paragraph\nstill first.\n\n\n- a\n- b\n\nLast';
    const blocks = splitMarkdownBlocks(text);
    expect(blocks).toEqual(['# Title\n\n', 'First paragraph\nstill first.\n\n\n', '- a\n- b\n\n', 'Last']);
    expect(blocks.join('')).toBe(text);
  });

  it('keeps a fenced code block whole, blank lines included', () => {
    const text = 'Intro\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter';
    expect(splitMarkdownBlocks(text)).toEqual(['Intro\n\n', '```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n', 'After']);
  });

  it('keeps an unclosed fence (still streaming) in the last block', () => {
    const text = 'Intro\n\n~~~\ncode\n\nmore code';
    expect(splitMarkdownBlocks(text)).toEqual(['Intro\n\n', '~~~\ncode\n\nmore code']);
  });

  it('keeps indented continuations with their list item', () => {
    const text = '1. Step one\n\n   More about step one.\n\n2. Step two';
    expect(splitMarkdownBlocks(text)).toEqual(['1. Step one\n\n   More about step one.\n\n', '2. Step two']);
  });

  it('keeps tables together', () => {
    const text = '| a | b |\n|---|---|\n| 1 | 2 |\n\nAfter';
    expect(splitMarkdownBlocks(text)).toEqual(['| a | b |\n|---|---|\n| 1 | 2 |\n\n', 'After']);
  });

  it('keeps text with link or footnote definitions whole (they resolve across blocks)', () => {
    const text = 'See [the docs][1].\n\n[1]: https://example.com';
    expect(splitMarkdownBlocks(text)).toEqual([text]);
  });

  it('only the last block changes while an answer grows', () => {
    const answer = 'Para one.\n\nPara two.\n\nPara three is long and still being written';
    let previous: string[] = [];
    for (let end = 1; end <= answer.length; end++) {
      const blocks = splitMarkdownBlocks(answer.slice(0, end));
      // Every block but the last was already there, unchanged, once a later block started.
      for (let i = 0; i < previous.length - 1; i++) expect(blocks[i]).toBe(previous[i]);
      previous = blocks;
    }
    expect(previous).toHaveLength(3);
  });

  it('returns nothing for an empty text', () => {
    expect(splitMarkdownBlocks('')).toEqual([]);
  });
});

describe('hasCodeFence', () => {
  it('detects fenced code only', () => {
    expect(hasCodeFence('text\n```js\nx\n```')).toBe(true);
    expect(hasCodeFence('~~~\nx')).toBe(true);
    expect(hasCodeFence('inline `code` only')).toBe(false);
  });
});
