import { describe, expect, it } from 'vitest';
import { inlineText, markdownBlocks } from './markdown-blocks';
import { markdownPieces, NESTING_MAX_COLUMN, PIECE_TARGET } from './markdown-pieces';

describe('markdownPieces', () => {
  it('escapes container markers past the nesting limit, keeping every character', () => {
    const deep = `${'> '.repeat(1500)}deep`;
    const [piece] = markdownPieces(deep);
    expect(piece.text.replace('\\', '')).toBe(deep);
    expect(piece.text.indexOf('\\')).toBe(NESTING_MAX_COLUMN);
    // Parsed: 32 quote levels, the rest literal text.
    const [block] = markdownBlocks(deep);
    expect(block.kind).toBe('quote');
    expect(block.kind === 'quote' && inlineText(block.inlines)).toBe(`${'> '.repeat(1500 - NESTING_MAX_COLUMN / 2)}deep`.trimEnd());

    const ladder = Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n');
    const depths = markdownBlocks(ladder).map((b) => (b.kind === 'bullet' ? b.depth : -1));
    expect(Math.max(...depths)).toBeLessThanOrEqual(NESTING_MAX_COLUMN / 2);
    const text = markdownBlocks(ladder).map((b) => ('inlines' in b ? inlineText(b.inlines) : b.kind === 'code' ? b.text : ''));
    expect(text.join(' ')).toContain('item 199');
    // Ordinary nesting is untouched.
    expect(markdownPieces('- a\n  - b\n    > c\n')[0].text).toBe('- a\n  - b\n    > c\n');
  });

  it('never escapes inside fenced code', () => {
    const code = ['```', `${' '.repeat(80)}- not a list`, `${' '.repeat(80)}> not a quote`, '```'].join('\n');
    expect(markdownPieces(code).map((p) => p.text)).toEqual([code]);
    expect(markdownBlocks(code)).toEqual([{ kind: 'code', text: `${' '.repeat(80)}- not a list\n${' '.repeat(80)}> not a quote` }]);
  });

  it('cuts long text into bounded pieces at block boundaries, never inside fenced code', () => {
    const paragraphs = Array.from({ length: 3000 }, (_, i) => `Paragraph ${i} with a few words.`).join('\n\n');
    const pieces = markdownPieces(paragraphs);
    expect(pieces.length).toBeGreaterThan(3);
    for (const piece of pieces) expect(piece.text.length).toBeLessThanOrEqual(PIECE_TARGET);
    expect(pieces.map((p) => p.text).join('\n')).toBe(paragraphs);
    expect(markdownBlocks(paragraphs)).toHaveLength(3000);

    const longCode = ['```', ...Array.from({ length: 3000 }, (_, i) => `line ${i}`), '```', '', 'after'].join('\n');
    const blocks = markdownBlocks(longCode);
    expect(blocks.map((b) => b.kind)).toEqual(['code', 'paragraph']);

    const oneLine = 'word '.repeat(10_000).trim();
    const cut = markdownPieces(oneLine);
    expect(cut.length).toBeGreaterThan(1);
    expect(cut.map((p) => p.text).join('')).toBe(oneLine);
  });
});
