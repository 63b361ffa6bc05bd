// Word export (spec part 2 §2 "Download (Word export only)", §7 GET /documents/doc-converted/{id}) built with
// `docx` from the blocks — our own mapping, since BlockNote's xl-docx-exporter is GPL-or-commercial
// (DESIGN.md §2). Headings 1-3, paragraphs with bold/italic/underline/strike/code/links, bullet, numbered and
// check lists (nesting by indent level), tables, code blocks, quotes; images and files become links.
import type { DocumentBlock, DocumentInline } from '@pluma/common/documents';
import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  LevelFormat,
  Packer,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ParagraphChild,
} from 'docx';
import { isSafeUrl } from './sanitize';

const NUMBERED = 'numbered';
const MONO = 'Courier New';
const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3] as const;

interface Styles {
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  code?: boolean;
}

function run(text: string, styles: Styles = {}, extra: { link?: boolean } = {}): TextRun {
  return new TextRun({
    text,
    bold: styles.bold === true,
    italics: styles.italic === true,
    strike: styles.strike === true,
    ...(styles.underline || extra.link ? { underline: {} } : {}),
    ...(styles.code ? { font: MONO, shading: { type: ShadingType.CLEAR, fill: 'EEEEEE', color: 'auto' } } : {}),
    ...(extra.link ? { color: '0563C1' } : {}),
  });
}

function inlineRuns(items: DocumentInline[] | undefined): ParagraphChild[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((item): ParagraphChild[] => {
    if (item.type === 'text') {
      const text = item as { text?: unknown; styles?: Styles };
      // A line break inside a block (shift+enter) is a break in the run.
      return String(text.text ?? '')
        .split('\n')
        .map((part, i) => (i === 0 ? run(part, text.styles) : new TextRun({ text: part, break: 1, ...stylesOf(text.styles) })));
    }
    if (item.type === 'link') {
      const link = item as { href?: unknown; content?: { text?: unknown; styles?: Styles }[] };
      const runs = (link.content ?? []).map((c) => run(String(c.text ?? ''), c.styles, { link: true }));
      return isSafeUrl(link.href) && link.href ? [new ExternalHyperlink({ link: link.href, children: runs })] : runs;
    }
    return [];
  });
}

const stylesOf = (styles: Styles = {}) => ({ bold: styles.bold === true, italics: styles.italic === true, strike: styles.strike === true });

interface State {
  /** The numbering instance of the current run of numbered items (restarts after any other block). */
  numberedInstance: number;
  inNumbered: boolean;
}

const alignmentOf = (props: Record<string, unknown> | undefined) => {
  switch (props?.textAlignment) {
    case 'center':
      return AlignmentType.CENTER;
    case 'right':
      return AlignmentType.RIGHT;
    case 'justify':
      return AlignmentType.JUSTIFIED;
    default:
      return undefined;
  }
};

function tableOf(block: DocumentBlock): Table | null {
  const content = block.content;
  if (!content || Array.isArray(content) || content.type !== 'tableContent') return null;
  const rows = (content.rows ?? []).filter((row) => Array.isArray(row?.cells) && row.cells.length > 0);
  if (rows.length === 0) return null;
  const headerRows = typeof content.headerRows === 'number' ? content.headerRows : 0;
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: rows.map(
      (row, r) =>
        new TableRow({
          tableHeader: r < headerRows,
          children: row.cells.map((cell) => {
            const inline = Array.isArray(cell) ? cell : cell?.content;
            const runs = inlineRuns(inline);
            return new TableCell({
              children: [new Paragraph({ children: runs })],
            });
          }),
        }),
    ),
  });
}

/** One block (and its children, one level deeper) as Word paragraphs and tables. */
function blockElements(block: DocumentBlock, level: number, state: State): (Paragraph | Table)[] {
  const props = block.props ?? {};
  const inline = Array.isArray(block.content) ? block.content : undefined;
  const indent = level > 0 ? { left: 720 * level } : undefined;
  const out: (Paragraph | Table)[] = [];
  const isNumbered = block.type === 'numberedListItem';
  if (isNumbered && !state.inNumbered) state.numberedInstance += 1;
  state.inNumbered = isNumbered;
  const alignment = alignmentOf(props);

  switch (block.type) {
    case 'heading': {
      const n = Math.min(Math.max(Number(props.level) || 1, 1), 3);
      out.push(new Paragraph({ heading: HEADINGS[n - 1], children: inlineRuns(inline), alignment, indent }));
      break;
    }
    case 'bulletListItem':
      out.push(new Paragraph({ bullet: { level: Math.min(level, 8) }, children: inlineRuns(inline), alignment }));
      break;
    case 'numberedListItem':
      out.push(new Paragraph({ numbering: { reference: NUMBERED, level: Math.min(level, 8), instance: state.numberedInstance }, children: inlineRuns(inline), alignment }));
      break;
    case 'checkListItem':
      out.push(new Paragraph({ children: [new TextRun({ text: props.checked === true ? '☒ ' : '☐ ' }), ...inlineRuns(inline)], alignment, indent }));
      break;
    case 'toggleListItem':
      out.push(new Paragraph({ children: [new TextRun({ text: '▸ ' }), ...inlineRuns(inline)], alignment, indent }));
      break;
    case 'quote':
      out.push(
        new Paragraph({
          children: inlineRuns(inline),
          indent: { left: 720 * (level + 1) },
          border: { left: { style: BorderStyle.SINGLE, size: 12, color: 'AAAAAA', space: 8 } },
          alignment,
        }),
      );
      break;
    case 'codeBlock': {
      const code = (inline ?? []).map((item) => String((item as { text?: unknown }).text ?? '')).join('');
      for (const line of code.split('\n')) {
        out.push(new Paragraph({ children: [new TextRun({ text: line, font: MONO })], shading: { type: ShadingType.CLEAR, fill: 'F4F4F4', color: 'auto' }, indent }));
      }
      break;
    }
    case 'table': {
      const table = tableOf(block);
      if (table) out.push(table);
      break;
    }
    case 'image':
    case 'file':
    case 'video':
    case 'audio': {
      const url = typeof props.url === 'string' ? props.url : '';
      const label = String(props.caption || props.name || url || block.type);
      const children: ParagraphChild[] =
        url && isSafeUrl(url, { media: true }) && /^https?:/i.test(url) ? [new ExternalHyperlink({ link: url, children: [run(label, {}, { link: true })] })] : [new TextRun({ text: label })];
      out.push(new Paragraph({ children, indent }));
      break;
    }
    case 'divider':
      out.push(new Paragraph({ children: [], border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: 'AAAAAA', space: 1 } } }));
      break;
    default:
      // paragraph and any block type we do not know: its text as a paragraph.
      out.push(new Paragraph({ children: inlineRuns(inline), alignment, indent }));
  }
  for (const child of block.children ?? []) out.push(...blockElements(child, level + 1, state));
  return out;
}

/** The .docx file of a document's blocks. */
export async function documentToDocx(name: string, blocks: DocumentBlock[]): Promise<Buffer> {
  const state: State = { numberedInstance: 0, inNumbered: false };
  const children = blocks.flatMap((block) => blockElements(block, 0, state));
  const doc = new Document({
    title: name,
    creator: 'Pluma',
    numbering: {
      config: [
        {
          reference: NUMBERED,
          levels: Array.from({ length: 9 }, (_, level) => ({
            level,
            format: LevelFormat.DECIMAL,
            text: `%${level + 1}.`,
            alignment: AlignmentType.START,
            style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
          })),
        },
      ],
    },
    sections: [{ children: children.length > 0 ? children : [new Paragraph({ children: [] })] }],
  });
  return Packer.toBuffer(doc);
}
