// Hostile files made in the test (issue 27): what an attacker uploads to stall or crash a server that reads
// files — a zip bomb docx (300 KB that inflates to 300 MB), XML nested 100,000 deep, billion laughs, a
// 3,000-page PDF, a truncated PDF, an executable renamed .pdf — and a probe that measures how long
// /api/health waits while they are read.
import { performance } from 'node:perf_hooks';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import type { TestApp } from './test-app';
import { elfBytes, zipOf, type ZipPart } from '../features/files/test-fixtures';
import { pdfWithPages } from '../features/knowledge/test-fixtures';

const part = (name: string, content: string | Buffer): ZipPart => {
  const data = Buffer.from(content);
  return { name, stored: deflateRawSync(data), deflated: true, size: data.length, crc: crc32(data) };
};


const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** A Word document around `documentXml` (stored first, so the type is sniffed as docx). */
const docxAround = (documentXml: ZipPart) => zipOf([{ ...part('[Content_Types].xml', CONTENT_TYPES) }, documentXml]);

/**
 * A .docx of ~300 KB whose document.xml inflates to `megabytes` MB of spaces. `lie`: the headers declare 1 KB
 * (so only counting while inflating catches it); otherwise they declare the real size (the directory check does).
 */
export function zipBombDocx(options: { megabytes?: number; lie?: boolean } = {}): Buffer {
  const megabytes = options.megabytes ?? 300;
  const mb = Buffer.alloc(1024 * 1024, 0x20);
  // One deflate segment of 1 MB of spaces, flushed without ending the stream, repeated; then an empty final block.
  const segment = deflateRawSync(mb, { finishFlush: constants.Z_SYNC_FLUSH });
  const stored = Buffer.concat([...Array<Buffer>(megabytes).fill(segment), Buffer.from([0x03, 0x00])]);
  let crc = 0;
  for (let i = 0; i < megabytes; i++) crc = crc32(mb, crc);
  const size = options.lie ? 1024 : megabytes * 1024 * 1024;
  return docxAround({ name: 'word/document.xml', stored, deflated: true, size, crc });
}

/** A .docx whose document.xml nests `depth` elements (a few KB zipped). */
export function nestedXmlDocx(depth = 100_000): Buffer {
  const xml = `<w:document ${W}><w:body>${'<w:p>'.repeat(depth)}${'</w:p>'.repeat(depth)}</w:body></w:document>`;
  return docxAround(part('word/document.xml', xml));
}

/** Billion laughs: ten entities, each ten of the one before, in a .docx's document.xml. */
export function billionLaughsDocx(): Buffer {
  const entities = ['<!ENTITY lol0 "lol">'];
  for (let i = 1; i < 10; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  const xml = `<?xml version="1.0"?><!DOCTYPE w:document [${entities.join('')}]><w:document ${W}><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>`;
  return docxAround(part('word/document.xml', xml));
}

/** A valid PDF of `pages` empty pages, written by hand (fast for thousands of pages). */
export function manyPagesPdf(pages = 3_000): Buffer {
  const objects: string[] = [];
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`);
  for (let i = 0; i < pages; i++) objects.push('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>');
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A real text PDF cut at 60%: an upload that stopped half-way. */
export async function truncatedPdf(): Promise<Buffer> {
  const whole = await pdfWithPages(['The first page of a report about rivers and salmon.', 'The second page, about mountain lakes.', 'The third page.']);
  return whole.subarray(0, Math.floor(whole.length * 0.6));
}

/** A Linux executable named like a document. */
export const renamedBinary = () => elfBytes();

/** Every hostile file, named as an attacker would name it, with the reason it must fail with. */
export async function hostileFiles(): Promise<{ label: string; name: string; bytes: Buffer; reason: string }[]> {
  return [
    { label: 'zip bomb', name: 'bomb.docx', bytes: zipBombDocx({ lie: true }), reason: 'too_large' },
    { label: 'zip bomb (honest headers)', name: 'bomb2.docx', bytes: zipBombDocx(), reason: 'too_large' },
    { label: 'nested XML', name: 'nested.docx', bytes: nestedXmlDocx(), reason: 'too_deep' },
    { label: 'billion laughs', name: 'laughs.docx', bytes: billionLaughsDocx(), reason: 'xml_entities' },
    { label: '3,000-page PDF', name: 'book.pdf', bytes: manyPagesPdf(), reason: 'too_many_pages' },
    { label: 'truncated PDF', name: 'cut.pdf', bytes: await truncatedPdf(), reason: 'damaged' },
  ];
}

export interface HealthProbe {
  /** Probes answered while the work ran. */
  count: number;
  /** The longest a probe waited, in ms. */
  maxMs: number;
  statuses: Set<number>;
  /** Every probe's wait in ms, in order (to see when a slow one came). */
  samples: number[];
  /** The longest wait of 10 probes of the idle app just before: what this machine costs right now. */
  idleMaxMs: number;
}

/** Runs `work` while GET /api/health is asked every 20 ms; how long each answer took. */
export async function whileProbingHealth<T>(t: TestApp, work: () => Promise<T>): Promise<{ result: T; health: HealthProbe }> {
  let idleMaxMs = 0;
  for (let i = 0; i < 10; i++) {
    const started = performance.now();
    await t.app.inject({ url: '/api/health' });
    idleMaxMs = Math.max(idleMaxMs, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  let finished = false;
  const running = work().finally(() => (finished = true));
  const health: HealthProbe = { count: 0, maxMs: 0, statuses: new Set(), samples: [], idleMaxMs };
  do {
    const started = performance.now();
    const res = await t.app.inject({ url: '/api/health' });
    const waited = performance.now() - started;
    health.samples.push(Math.round(waited));
    health.maxMs = Math.max(health.maxMs, waited);
    health.count++;
    health.statuses.add(res.statusCode);
    await new Promise((resolve) => setTimeout(resolve, 20));
  } while (!finished);
  return { result: await running, health };
}
