import { describe, expect, it } from 'vitest';
import { markdownBlocks, type Block } from './markdown-blocks';

const inlinesOf = (markdown: string) => {
  const [block] = markdownBlocks(markdown);
  return block && 'inlines' in block ? block.inlines : [];
};

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
        '',
        '2) second',
        '3) third',
        '',
        '> quoted',
        '',
        '```ts',
        'const a = 1;',
        '```',
        '',
        '| A | B |',
        '| --- | --- |',
        '| 1 | **2** |',
        '',
        '---',
      ].join('\n'),
    );
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'bullet', 'bullet', 'ordered', 'ordered', 'quote', 'code', 'table', 'rule']);
    expect(blocks[0]).toEqual({ kind: 'heading', level: 1, inlines: [{ text: 'Title' }] });
    expect(blocks[1]).toEqual({ kind: 'paragraph', inlines: [{ text: 'First line same paragraph.' }] });
    expect(blocks[2]).toMatchObject({ kind: 'bullet', depth: 0, inlines: [{ text: 'one' }] });
    expect(blocks[3]).toMatchObject({ kind: 'bullet', depth: 1, inlines: [{ text: 'nested' }] });
    expect(blocks[4]).toMatchObject({ kind: 'ordered', number: 2 });
    expect(blocks[5]).toMatchObject({ kind: 'ordered', number: 3, inlines: [{ text: 'third' }] });
    expect(blocks[6]).toEqual({ kind: 'quote', inlines: [{ text: 'quoted' }] });
    expect(blocks[7]).toEqual({ kind: 'code', text: 'const a = 1;' });
    expect(blocks[8]).toEqual({ kind: 'table', rows: [[[{ text: 'A' }], [{ text: 'B' }]], [[{ text: '1' }], [{ text: '2', bold: true }]]] });
  });

  it('splits inline bold, italic, strikethrough and code; links print their url; HTML stays text', () => {
    expect(inlinesOf('a **b** *c* `d` ~~s~~ [e](https://x.y) <b>f</b>')).toEqual([
      { text: 'a ' },
      { text: 'b', bold: true },
      { text: ' ' },
      { text: 'c', italic: true },
      { text: ' ' },
      { text: 'd', code: true },
      { text: ' ' },
      { text: 's', strike: true },
      { text: ' e (https://x.y) <b>f</b>' },
    ]);
    expect(inlinesOf('snake_case_name stays')).toEqual([{ text: 'snake_case_name stays' }]);
    expect(inlinesOf('***both*** and **nested _italic_**')).toEqual([
      { text: 'both', bold: true, italic: true },
      { text: ' and ' },
      { text: 'nested ', bold: true },
      { text: 'italic', bold: true, italic: true },
    ]);
    // Autolinks print once; images print their alt text and address.
    expect(inlinesOf('see www.example.com and ![a chart](https://x.y/c.png) ![](https://x.y/d.png)')).toEqual([
      { text: 'see www.example.com and a chart (https://x.y/c.png) https://x.y/d.png' },
    ]);
    expect(markdownBlocks('<div onclick="x()">hi</div>')).toEqual([{ kind: 'paragraph', inlines: [{ text: '<div onclick="x()">hi</div>' }] }]);
  });

  it('reads task items, ordered depth, list item paragraphs and quotes with lists', () => {
    const blocks = markdownBlocks(['- [x] done', '- [ ] open', '', '1. first', '   1. inner', '', '   more about first', '', '> - quoted item'].join('\n'));
    expect(blocks).toEqual<Block[]>([
      { kind: 'bullet', depth: 0, inlines: [{ text: 'done' }], checked: true },
      { kind: 'bullet', depth: 0, inlines: [{ text: 'open' }], checked: false },
      { kind: 'ordered', depth: 0, number: 1, inlines: [{ text: 'first' }] },
      { kind: 'ordered', depth: 1, number: 1, inlines: [{ text: 'inner' }] },
      { kind: 'paragraph', depth: 0, inlines: [{ text: 'more about first' }] },
      { kind: 'bullet', depth: 0, inlines: [{ text: 'quoted item' }] },
    ]);
  });

  it('keeps a long table whole when the text is parsed in pieces', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => `| row ${i} | value ${i} |`);
    const [table, ...rest] = markdownBlocks(['| Name | Value |', '| --- | --- |', ...rows].join('\n'));
    expect(rest).toEqual([]);
    expect(table.kind === 'table' && table.rows.length).toBe(2001);
    expect(table.kind === 'table' && table.rows[2000]).toEqual([[{ text: 'row 1999' }], [{ text: 'value 1999' }]]);
  });
});
