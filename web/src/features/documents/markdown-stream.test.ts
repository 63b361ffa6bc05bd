// Streaming markdown into the editor (issue 15 item 1: finished blocks committed, only the trailing block
// re-parsed, never the whole document per token): the splitter on its own (fences, tables, lists, the
// trailing block), then the stream against a fake editor (what is parsed, inserted, replaced, kept) and
// against BlockNote itself (headless: GFM tables, strikethrough and task lists come through).
import { BlockNoteEditor } from '@blocknote/core';
import { describe, expect, it } from 'vitest';
import { MarkdownStream, splitMarkdown } from './markdown-stream';
import { FakeStreamEditor } from './testing/fake-stream-editor';

describe('splitMarkdown', () => {
  it('keeps everything trailing until a blank line is followed by new text', () => {
    expect(splitMarkdown('')).toEqual({ finished: '', trailing: '' });
    expect(splitMarkdown('One para')).toEqual({ finished: '', trailing: 'One para' });
    // The blank line is there, but what follows is unknown (an indented line would continue the block).
    expect(splitMarkdown('One para\n\n')).toEqual({ finished: '', trailing: 'One para\n\n' });
    expect(splitMarkdown('One para\n\nTw')).toEqual({ finished: 'One para\n\n', trailing: 'Tw' });
    expect(splitMarkdown('# Title\n\nOne\n\nTwo\nstill two')).toEqual({ finished: '# Title\n\nOne\n\n', trailing: 'Two\nstill two' });
    // A line with only spaces is blank too; an unfinished last line is not.
    expect(splitMarkdown('a\n  \nb')).toEqual({ finished: 'a\n  \n', trailing: 'b' });
  });

  it('never splits inside a fenced code block, ``` or ~~~, even at blank lines', () => {
    const open = 'Intro\n\n```js\nconst a = 1;\n\nconst b = 2;\n';
    expect(splitMarkdown(open)).toEqual({ finished: 'Intro\n\n', trailing: '```js\nconst a = 1;\n\nconst b = 2;\n' });
    const closed = `${open}\`\`\`\n\nAfter`;
    expect(splitMarkdown(closed).trailing).toBe('After');
    // A shorter or different fence does not close it; a longer one of the same kind does.
    expect(splitMarkdown('~~~~\nx\n~~~\n\ny\n~~~~~\n\nz').trailing).toBe('z');
    expect(splitMarkdown('~~~\nx\n```\n\ny').trailing).toBe('~~~\nx\n```\n\ny');
    // Inline code on a line is not a fence.
    expect(splitMarkdown('```inline``` text\n\nnext').trailing).toBe('next');
  });

  it('keeps a table whole in the trailing block while its rows arrive', () => {
    const table = 'Intro\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 |';
    expect(splitMarkdown(table)).toEqual({ finished: 'Intro\n\n', trailing: '| a | b |\n|---|---|\n| 1 | 2 |\n| 3 |' });
    expect(splitMarkdown('| a | b |\n|---|---|\n| 1 | 2 |\n\nDone').finished).toBe('| a | b |\n|---|---|\n| 1 | 2 |\n\n');
  });

  it('keeps list items and their indented continuation together', () => {
    // A loose list splits between items; an indented paragraph after a blank line stays with its item.
    expect(splitMarkdown('- one\n- two\n\n- three')).toEqual({ finished: '- one\n- two\n\n', trailing: '- three' });
    expect(splitMarkdown('- one\n\n  more of one\n\n  - nested')).toEqual({ finished: '', trailing: '- one\n\n  more of one\n\n  - nested' });
    expect(splitMarkdown('1. one\n\n    code of one\n\n2. two').trailing).toBe('2. two');
    expect(splitMarkdown('- [ ] task\n- [x] done\n\n~~gone~~')).toEqual({ finished: '- [ ] task\n- [x] done\n\n', trailing: '~~gone~~' });
  });
});

describe('MarkdownStream', () => {
  it('commits finished text once, re-parses only the trailing block, and appends at the end', () => {
    const editor = new FakeStreamEditor(['Mine']);
    const stream = new MarkdownStream(editor);
    stream.append('# Ti');
    stream.render();
    expect(editor.text).toBe('Mine\n# Ti');
    stream.append('tle\n\nFirst par');
    stream.render();
    expect(editor.text).toBe('Mine\n# Title\nFirst par');
    const committed = editor.blocks[1];
    stream.append('agraph\n\n| a | b |\n|---|');
    stream.render();
    stream.append('---|\n| 1 | 2 |');
    stream.render();
    // The heading was parsed once and its block is the same object: never touched again.
    expect(editor.blocks[1]).toBe(committed);
    expect(editor.parsed).toEqual(['# Ti', '# Title\n\n', 'First par', 'First paragraph\n\n', '| a | b |\n|---|', '| a | b |\n|---|---|\n| 1 | 2 |']);
    expect(editor.log).toEqual(['insert 1 after b' + editor.blocks[0].id.slice(1), 'replace 1 with 2', 'replace 1 with 2', 'replace 1 with 1']);
    // The last render commits the trailing block; rendering the same text again does nothing.
    stream.render(true);
    stream.render(true);
    expect(editor.text).toBe('Mine\n# Title\nFirst paragraph\n| a | b |\n|---|---|\n| 1 | 2 |');
    expect(editor.parsed).toHaveLength(7);
    expect(editor.blocks[0].id).not.toBe(committed.id);
    expect(stream.blockIds).toEqual(editor.blocks.slice(1).map((b) => b.id));
  });

  it("writes before the document's empty last paragraph, and after its own blocks when the user removed the trailing one", () => {
    const editor = new FakeStreamEditor(['Mine', '']);
    const stream = new MarkdownStream(editor);
    stream.append('One\n\nTwo');
    stream.render();
    expect(editor.blocks.map((b) => b.content[0]?.text ?? '')).toEqual(['Mine', 'One', 'Two', '']);
    // The user deletes the trailing block while it streams: the next render inserts after 'One'.
    editor.blocks.splice(2, 1);
    stream.append('\n\nThree');
    stream.render();
    expect(editor.blocks.map((b) => b.content[0]?.text ?? '')).toEqual(['Mine', 'One', 'Two', 'Three', '']);
  });

  it('replaces what a reload left of the same generation, and rewrites only its own blocks when the text does not continue', () => {
    const editor = new FakeStreamEditor(['Mine']);
    const first = new MarkdownStream(editor);
    first.append('Part one\n\nPart t');
    first.render();
    const left = first.blockIds;
    // After a reload: the same generation's blocks are removed, then its saved text is written again.
    const again = new MarkdownStream(editor, [...left, 'gone']);
    expect(editor.text).toBe('Mine');
    again.setText('Part one\n\nPart two\n\nPart');
    again.render();
    expect(editor.text).toBe('Mine\nPart one\nPart two\nPart');
    // The final text differs from what was committed (frames were missed): only this stream's blocks change.
    again.setText('Part one!\n\nPart two\n\nPart three');
    again.render(true);
    expect(editor.text).toBe('Mine\nPart one!\nPart two\nPart three');
    expect(editor.blocks[0].content[0].text).toBe('Mine');
  });
});

describe('MarkdownStream with BlockNote', () => {
  const shape = (blocks: { type: string; props: unknown; content?: unknown; children: unknown[] }[]) => JSON.parse(JSON.stringify(blocks, (key, value: unknown) => (key === 'id' ? undefined : value))) as unknown;

  it('ends a GFM answer streamed word by word with the blocks of the whole answer parsed at once', () => {
    const markdown = '# Plan\n\nWe **launch** in ~~May~~ June.\n\n| Market | Date |\n|---|---|\n| Madrid | June |\n| Lima | ~~July~~ |\n\n- [ ] Book venues\n- [x] Hire team\n\n```\nnpm run launch\n\nnpm run party\n```\n\n1. First\n2. Second';
    const editor = BlockNoteEditor.create({ initialContent: [{ type: 'paragraph', content: 'Mine' }] });
    const stream = new MarkdownStream(editor);
    for (const token of markdown.match(/\s*\S+\s*/g) ?? []) {
      stream.append(token);
      stream.render();
    }
    stream.render(true);
    const whole = editor.tryParseMarkdownToBlocks(markdown);
    expect(shape(editor.document.slice(1))).toEqual(shape(whole));
    expect(editor.document.map((b) => b.type)).toEqual(['paragraph', 'heading', 'paragraph', 'table', 'checkListItem', 'checkListItem', 'codeBlock', 'numberedListItem', 'numberedListItem']);
    expect(JSON.stringify(editor.document)).toContain('"strike":true');
  });
});
