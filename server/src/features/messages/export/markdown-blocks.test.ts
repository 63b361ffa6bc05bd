import { describe, expect, it } from 'vitest';
import { markdownBlocks, parseInlines } from './markdown-blocks';

describe('markdownBlocks', () => {
  it('reads headings, paragraphs, lists, quotes, code, tables and rules', () => {
    const blocks = markdownBlocks(
      [
        '# Title',
        '',
        'First line',
        'same paragraph.',
        '',
        '- one',
        '  - nested',
        '1. first',
        '2) second',
        '> quoted',
        '```ts',
        'const a = 1;',
        '```',
        '| A | B |',
        '| --- | --- |',
        '| 1 | 2 |',
        '---',
      ].join('\n'),
    );
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'bullet', 'bullet', 'ordered', 'ordered', 'quote', 'code', 'table', 'rule']);
    expect(blocks[1]).toEqual({ kind: 'paragraph', inlines: [{ text: 'First line same paragraph.' }] });
    expect(blocks[3]).toMatchObject({ kind: 'bullet', depth: 1 });
    expect(blocks[5]).toMatchObject({ kind: 'ordered', number: 2 });
    expect(blocks[7]).toEqual({ kind: 'code', text: 'const a = 1;' });
    expect(blocks[8]).toEqual({ kind: 'table', rows: [['A', 'B'], ['1', '2']] });
  });

  it('splits inline bold, italic, code and links; leaves HTML as text', () => {
    expect(parseInlines('a **b** *c* `d` [e](https://x.y) <b>f</b>')).toEqual([
      { text: 'a ' },
      { text: 'b', bold: true },
      { text: ' ' },
      { text: 'c', italic: true },
      { text: ' ' },
      { text: 'd', code: true },
      { text: ' e (https://x.y) <b>f</b>' },
    ]);
    expect(parseInlines('snake_case_name stays')).toEqual([{ text: 'snake_case_name stays' }]);
  });
});
