// POST /api/messages/word: a message's markdown as a Word document (docx), with real headings,
// bulleted and numbered lists and tables, so it stays editable in Word.
import {
  AlignmentType,
  BorderStyle,
  Document,
  HeadingLevel,
  LevelFormat,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import { markdownBlocks, type Inline } from './markdown-blocks';

const HEADINGS = {
  1: HeadingLevel.HEADING_1,
  2: HeadingLevel.HEADING_2,
  3: HeadingLevel.HEADING_3,
  4: HeadingLevel.HEADING_4,
  5: HeadingLevel.HEADING_5,
  6: HeadingLevel.HEADING_6,
} as const;

const ORDERED_REFERENCE = 'pluma-ordered';

// XML 1.0 forbids most control characters; a stray one would make Word refuse the file.
const xmlSafe = (text: string) =>
  Array.from(text)
    .filter((ch) => {
      const code = ch.codePointAt(0) ?? 0;
      return code === 9 || code === 10 || code === 13 || (code >= 32 && code !== 0xfffe && code !== 0xffff);
    })
    .join('');

/** Deeper list levels use the last numbering and bullet level Word has been given. */
const MAX_DEPTH = 4;

/** One run per styled piece; a hard line break ("\n") starts a new line inside the paragraph. */
function runs(inlines: Inline[], extra: { bold?: boolean; italics?: boolean } = {}): TextRun[] {
  return inlines.flatMap((inline) =>
    inline.text.split('\n').map(
      (line, index) =>
        new TextRun({
          text: xmlSafe(line),
          bold: inline.bold || extra.bold,
          italics: inline.italic || extra.italics,
          ...(index > 0 ? { break: 1 } : {}),
          ...(inline.strike ? { strike: true } : {}),
          ...(inline.code ? { font: 'Courier New' } : {}),
        }),
    ),
  );
}

/** A task item starts with its box. */
const taskBox = (checked: boolean | undefined): Inline[] => (checked === undefined ? [] : [{ text: checked ? '☒ ' : '☐ ' }]);

function table(rows: Inline[][][]): Table {
  const columns = Math.max(1, ...rows.map((r) => r.length));
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: rows.map(
      (row, index) =>
        new TableRow({
          tableHeader: index === 0,
          children: Array.from({ length: columns }, (_, c) => new TableCell({ children: [new Paragraph({ children: runs(row[c] ?? [], { bold: index === 0 }) })] })),
        }),
    ),
  });
}

export async function renderDocx(markdown: string, title = 'Message'): Promise<Buffer> {
  const children: Array<Paragraph | Table> = [];
  // Each numbered list restarts at 1: a new numbering instance per list.
  let listInstance = 0;
  let previousKind: string | null = null;
  for (const block of markdownBlocks(markdown)) {
    if (block.kind === 'ordered' && previousKind !== 'ordered') listInstance++;
    previousKind = block.kind;
    switch (block.kind) {
      case 'heading':
        children.push(new Paragraph({ heading: HEADINGS[block.level], children: runs(block.inlines) }));
        break;
      case 'paragraph':
        children.push(
          new Paragraph({ children: runs(block.inlines), spacing: { after: 120 }, ...(block.depth !== undefined ? { indent: { left: 720 * (Math.min(block.depth, MAX_DEPTH) + 1) } } : {}) }),
        );
        break;
      case 'quote':
        children.push(new Paragraph({ children: runs(block.inlines, { italics: true }), indent: { left: 480 } }));
        break;
      case 'bullet':
        children.push(new Paragraph({ children: runs([...taskBox(block.checked), ...block.inlines]), bullet: { level: Math.min(block.depth, MAX_DEPTH) } }));
        break;
      case 'ordered':
        children.push(
          new Paragraph({
            children: runs([...taskBox(block.checked), ...block.inlines]),
            numbering: { reference: ORDERED_REFERENCE, level: Math.min(block.depth, MAX_DEPTH), instance: listInstance },
          }),
        );
        break;
      case 'code':
        for (const line of block.text.split('\n')) {
          children.push(new Paragraph({ children: [new TextRun({ text: xmlSafe(line), font: 'Courier New', size: 19 })], indent: { left: 240 } }));
        }
        break;
      case 'table':
        children.push(table(block.rows));
        break;
      case 'rule':
        children.push(new Paragraph({ children: [], border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: '999999', space: 1 } } }));
        break;
    }
  }
  const document = new Document({
    title: xmlSafe(title),
    creator: 'Pluma',
    numbering: {
      config: [
        {
          reference: ORDERED_REFERENCE,
          levels: Array.from({ length: 5 }, (_, level) => ({
            level,
            format: LevelFormat.DECIMAL,
            text: `%${level + 1}.`,
            alignment: AlignmentType.START,
            style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
          })),
        },
      ],
    },
    sections: [{ children: children.length ? children : [new Paragraph('')] }],
  });
  return Packer.toBuffer(document);
}
