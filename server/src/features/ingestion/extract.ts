// Text out of an uploaded file (issue 13 item 3; spec part 2 §5 uploads: .docx, .pdf, .pptx, .txt), as
// blocks that keep where they came from: the page (pdf) or slide (pptx), and the heading above them (docx
// heading styles, slide titles, markdown-style '#' lines in txt). Runs only in an ingestion worker thread
// (worker.ts), within limits (issue 27): zip containers are checked and inflated by zip.ts before any parser
// sees them, XML parts are checked for depth and entity declarations, PDFs for pages, all for characters.
import { XMLParser } from 'fast-xml-parser';
import mammoth from 'mammoth';
import { getDocumentProxy } from 'unpdf';
import { FileReadFailure, type ContentLimits } from './failure';
import { checkXml, readZip } from './zip';

export interface TextBlock {
  /** 1-based page or slide; null where the format has no pages. */
  page: number | null;
  heading: string | null;
  text: string;
}

export interface ExtractedText {
  blocks: TextBlock[];
  /** Pages (pdf) or slides (pptx); null for docx and txt. */
  pages: number | null;
}

/** The types whose text the pipeline reads (md and csv are read as text). */
export type KnowledgeFileType = 'pdf' | 'docx' | 'pptx' | 'txt' | 'md' | 'csv';
export const KNOWLEDGE_FILE_TYPES: readonly KnowledgeFileType[] = ['pdf', 'docx', 'pptx', 'txt', 'md', 'csv'];

export function isKnowledgeFileType(type: string): type is KnowledgeFileType {
  return (KNOWLEDGE_FILE_TYPES as readonly string[]).includes(type);
}

/**
 * Spaces collapsed, line breaks kept; no control characters (they would only add noise to the index) and no
 * lone surrogate halves (a damaged file's; the index receives its chunks as JSON, which must be well formed).
 */
export function cleanText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/(?![\n\t])[\p{Cc}\u00ad]/gu, '')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The file's text blocks. Throws FileReadFailure: 'damaged' when it is not really that format (corrupt,
 * encrypted, cut short), or the limit it went over.
 */
export async function extractFileText(bytes: Uint8Array, type: KnowledgeFileType, limits: ContentLimits): Promise<ExtractedText> {
  let extracted: ExtractedText;
  try {
    switch (type) {
      case 'pdf':
        extracted = await extractPdf(bytes, limits);
        break;
      case 'docx':
        extracted = await extractDocx(bytes, limits);
        break;
      case 'pptx':
        extracted = extractPptx(bytes, limits);
        break;
      case 'txt':
      case 'md':
      case 'csv':
        extracted = extractTxt(bytes);
        break;
    }
  } catch (err) {
    if (err instanceof FileReadFailure) throw err;
    throw new FileReadFailure('damaged', err instanceof Error ? err.message : String(err));
  }
  checkCharacters(extracted.blocks, limits);
  return extracted;
}

function checkCharacters(blocks: TextBlock[], limits: ContentLimits, seen = 0): number {
  let characters = seen;
  for (const block of blocks) characters += block.text.length;
  if (characters > limits.maxCharacters) throw new FileReadFailure('too_much_text', `more than ${limits.maxCharacters} characters`);
  return characters;
}

async function extractPdf(bytes: Uint8Array, limits: ContentLimits): Promise<ExtractedText> {
  // A PDF ends with %%EOF (within its last kilobyte); without it the upload was cut short. pdf.js would try
  // to rebuild it and could index half a document as if it were whole.
  if (!Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(-1024).includes('%%EOF')) throw new FileReadFailure('damaged', 'no %%EOF: cut short');
  // pdf.js takes ownership of the buffer it is given: a copy keeps the caller's bytes intact.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  try {
    if (pdf.numPages > limits.maxPdfPages) throw new FileReadFailure('too_many_pages', `${pdf.numPages} pages`);
    // One page at a time (unpdf's extractText reads them all at once), stopping at the character limit.
    const blocks: TextBlock[] = [];
    let characters = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const raw = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
      page.cleanup();
      const text = cleanText(raw);
      if (!text) continue;
      const block = { page: number, heading: null, text };
      characters = checkCharacters([block], limits, characters);
      blocks.push(block);
    }
    return { blocks, pages: pdf.numPages };
  } finally {
    await pdf.loadingTask.destroy();
  }
}

const decoder = new TextDecoder();

/** The zip's XML parts (and relationships), each checked before a parser sees it. */
function checkedParts(bytes: Uint8Array, limits: ContentLimits, want: (name: string) => boolean): Map<string, string> {
  const parts = new Map<string, string>();
  for (const [name, data] of readZip(bytes, limits, (name) => want(name) && /\.(xml|rels)$/i.test(name))) {
    const text = decoder.decode(data);
    checkXml(text, limits.maxXmlDepth);
    parts.set(name, text);
  }
  return parts;
}

// mammoth's document model (lib/documents.js): paragraphs with a style, runs, text, tabs and breaks, tables.
interface DocxElement {
  type: string;
  value?: string;
  styleId?: string | null;
  styleName?: string | null;
  children?: DocxElement[];
}

const HEADING_STYLE = /^(heading\s*\d|title)$/i;

function docxText(element: DocxElement): string {
  if (element.type === 'text') return element.value ?? '';
  if (element.type === 'tab') return ' ';
  if (element.type === 'break') return '\n';
  return (element.children ?? []).map(docxText).join('');
}

async function extractDocx(bytes: Uint8Array, limits: ContentLimits): Promise<ExtractedText> {
  // Every entry inflated within the limits and every XML part checked: mammoth then reads the same bytes.
  checkedParts(bytes, limits, () => true);
  const blocks: TextBlock[] = [];
  let heading: string | null = null;
  const visit = (element: DocxElement) => {
    if (element.type === 'paragraph') {
      const text = cleanText(docxText(element));
      if (!text) return;
      if (HEADING_STYLE.test(element.styleName ?? '') || HEADING_STYLE.test(element.styleId ?? '')) heading = text.slice(0, 300);
      blocks.push({ page: null, heading, text });
      return;
    }
    for (const child of element.children ?? []) visit(child);
  };
  await mammoth.convertToHtml(
    { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
    {
      // Pictures are not text: never decoded.
      convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })),
      transformDocument: (document: DocxElement) => {
        visit(document);
        return document;
      },
    },
  );
  return { blocks, pages: null };
}

// pptx: a zip of DrawingML XML. Slide order comes from presentation.xml's slide list and its relationships.
type XmlNode = Record<string, unknown>;
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', preserveOrder: true, trimValues: false, processEntities: true });

function tagOf(node: XmlNode): string | undefined {
  return Object.keys(node).find((key) => key !== ':@');
}

function childrenOf(node: XmlNode): XmlNode[] {
  const tag = tagOf(node);
  const value = tag ? node[tag] : undefined;
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

function attrsOf(node: XmlNode): Record<string, string> {
  return (node[':@'] as Record<string, string> | undefined) ?? {};
}

function* descendants(nodes: XmlNode[], tag: string): Generator<XmlNode> {
  for (const node of nodes) {
    if (tagOf(node) === tag) yield node;
    else yield* descendants(childrenOf(node), tag);
  }
}

function textOf(nodes: XmlNode[]): string {
  let out = '';
  for (const node of nodes) {
    if (tagOf(node) === '#text') out += String(node['#text']);
    else out += textOf(childrenOf(node));
  }
  return out;
}

function slideOrder(entries: Map<string, string>): string[] {
  const slides = [...entries.keys()].filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name));
  const byNumber = [...slides].sort((a, b) => Number(/(\d+)\.xml$/.exec(a)?.[1]) - Number(/(\d+)\.xml$/.exec(b)?.[1]));
  const presentation = entries.get('ppt/presentation.xml');
  const rels = entries.get('ppt/_rels/presentation.xml.rels');
  if (!presentation || !rels) return byNumber;
  const targets = new Map<string, string>();
  for (const rel of descendants(xml.parse(rels) as XmlNode[], 'Relationship')) {
    const { Id, Target } = attrsOf(rel);
    if (Id && Target) targets.set(Id, `ppt/${Target.replace(/^\/?ppt\//, '').replace(/^\.\//, '')}`);
  }
  const ordered = [...descendants(xml.parse(presentation) as XmlNode[], 'p:sldId')]
    .map((id) => targets.get(attrsOf(id)['r:id']))
    .filter((name): name is string => name !== undefined && slides.includes(name));
  return ordered.length ? ordered : byNumber;
}

function extractPptx(bytes: Uint8Array, limits: ContentLimits): ExtractedText {
  const entries = checkedParts(bytes, limits, (name) => (name.startsWith('ppt/') && name.endsWith('.xml')) || name.endsWith('.rels'));
  const order = slideOrder(entries);
  if (!entries.has('ppt/presentation.xml') && order.length === 0) throw new Error('not a presentation');
  const blocks: TextBlock[] = [];
  order.forEach((name, index) => {
    const tree = xml.parse(entries.get(name) ?? '') as XmlNode[];
    let title: string | null = null;
    const texts: string[] = [];
    for (const shape of descendants(tree, 'p:sp')) {
      const placeholder = [...descendants(childrenOf(shape), 'p:ph')][0];
      const isTitle = placeholder !== undefined && ['title', 'ctrTitle'].includes(attrsOf(placeholder).type ?? '');
      const paragraphs = [...descendants(childrenOf(shape), 'a:p')].map((p) => cleanText(textOf([...descendants(childrenOf(p), 'a:t')]))).filter(Boolean);
      if (isTitle && paragraphs.length && title === null) title = paragraphs.join(' ').slice(0, 300);
      texts.push(...paragraphs);
    }
    const text = cleanText(texts.join('\n'));
    if (text) blocks.push({ page: index + 1, heading: title, text });
  });
  return { blocks, pages: order.length };
}

const MARKDOWN_HEADING = /^#{1,6}\s+(.+)$/;

function extractTxt(bytes: Uint8Array): ExtractedText {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8: most likely a Windows editor's text (Windows-1252, a superset of Latin-1's letters).
    text = new TextDecoder('windows-1252').decode(bytes);
  }
  const blocks: TextBlock[] = [];
  let heading: string | null = null;
  for (const paragraph of text.replace(/^\uFEFF/, '').split(/\r?\n\s*\r?\n/)) {
    const lines = paragraph.split(/\r?\n/);
    const match = MARKDOWN_HEADING.exec(lines[0].trim());
    if (match) heading = cleanText(match[1]).slice(0, 300);
    const cleaned = cleanText(paragraph);
    if (cleaned) blocks.push({ page: null, heading, text: cleaned });
  }
  return { blocks, pages: null };
}
