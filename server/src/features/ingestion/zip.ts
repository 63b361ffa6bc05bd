// Zip containers (docx, pptx, xlsx) read within limits (issue 27: a 306 KB .docx that inflated to 300 MB took
// the server down). The central directory is checked before anything is inflated — entry count and the
// sizes the entries declare — and every entry is then inflated with a cap on its output (node:zlib's
// maxOutputLength), so an entry that lies about its size stops at the size it declared.
import { inflateRawSync } from 'node:zlib';
import { FileReadFailure, type ContentLimits } from './failure';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_MARK = 0xffffffff;

const damaged = (detail: string) => new FileReadFailure('damaged', detail);

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The entries the central directory lists, refused when there are too many or they declare too many bytes. */
export function zipDirectory(bytes: Uint8Array, limits: Pick<ContentLimits, 'maxZipEntries' | 'maxExpandedBytes'>): ZipEntry[] {
  const data = view(bytes);
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (data.getUint32(at, true) === EOCD) {
      end = at;
      break;
    }
  }
  if (end < 0) throw damaged('no end of central directory');
  const count = data.getUint16(end + 10, true);
  const directorySize = data.getUint32(end + 12, true);
  const directoryOffset = data.getUint32(end + 16, true);
  // Zip64 (more than 65,535 entries or 4 GB): never an office document we could read within the limits.
  if (count === 0xffff) throw new FileReadFailure('too_many_entries', 'zip64 entry count');
  if (directoryOffset === ZIP64_MARK || directorySize === ZIP64_MARK) throw new FileReadFailure('too_large', 'zip64 offsets');
  if (count > limits.maxZipEntries) throw new FileReadFailure('too_many_entries', `${count} entries`);
  if (directoryOffset + directorySize > end) throw damaged('central directory out of bounds');
  const decoder = new TextDecoder();
  const entries: ZipEntry[] = [];
  let declared = 0;
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || data.getUint32(at, true) !== CENTRAL) throw damaged('bad central directory entry');
    const method = data.getUint16(at + 10, true);
    const compressedSize = data.getUint32(at + 20, true);
    const size = data.getUint32(at + 24, true);
    const nameLength = data.getUint16(at + 28, true);
    const extraLength = data.getUint16(at + 30, true);
    const commentLength = data.getUint16(at + 32, true);
    const localOffset = data.getUint32(at + 42, true);
    if (at + 46 + nameLength > end) throw damaged('entry name out of bounds');
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (size === ZIP64_MARK || compressedSize === ZIP64_MARK) throw new FileReadFailure('too_large', `zip64 entry ${name}`);
    declared += size;
    if (declared > limits.maxExpandedBytes) throw new FileReadFailure('too_large', `declares ${declared} bytes`);
    entries.push({ name, method, compressedSize, size, localOffset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * Inflates the entries (all of them, so a later reader of the same bytes meets only what was checked here) and
 * returns those `keep` wants. An entry that inflates beyond what it declared, or beyond the budget left, ends
 * the read as too large.
 */
export function readZip(
  bytes: Uint8Array,
  limits: Pick<ContentLimits, 'maxZipEntries' | 'maxExpandedBytes'>,
  keep: (name: string) => boolean,
): Map<string, Uint8Array> {
  const data = view(bytes);
  const kept = new Map<string, Uint8Array>();
  let budget = limits.maxExpandedBytes;
  for (const entry of zipDirectory(bytes, limits)) {
    const at = entry.localOffset;
    if (at + 30 > bytes.length || data.getUint32(at, true) !== LOCAL) throw damaged(`bad local header for ${entry.name}`);
    const start = at + 30 + data.getUint16(at + 26, true) + data.getUint16(at + 28, true);
    if (start + entry.compressedSize > bytes.length) throw damaged(`${entry.name} is cut short`);
    const raw = bytes.subarray(start, start + entry.compressedSize);
    let out: Uint8Array;
    if (entry.method === 0) {
      out = raw;
    } else if (entry.method === 8) {
      // One byte more than declared: inflating further proves the entry lied, and stops right there.
      const cap = Math.min(budget, entry.size) + 1;
      try {
        out = inflateRawSync(raw, { maxOutputLength: cap });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new FileReadFailure('too_large', `${entry.name} inflates past ${cap - 1} bytes`);
        throw damaged(`${entry.name}: ${(err as Error).message}`);
      }
    } else {
      throw damaged(`${entry.name}: compression method ${entry.method}`);
    }
    if (out.length > entry.size) throw new FileReadFailure('too_large', `${entry.name} is larger than it declares`);
    budget -= out.length;
    if (budget < 0) throw new FileReadFailure('too_large', 'expanded budget spent');
    if (keep(entry.name)) kept.set(entry.name, out);
  }
  return kept;
}

/**
 * Checks an XML part before any parser sees it: no DOCTYPE or ENTITY declarations (billion laughs; Office
 * parts never have them) and at most `maxDepth` nested elements (parsers recurse on depth).
 */
export function checkXml(text: string, maxDepth: number): void {
  let depth = 0;
  let i = 0;
  const length = text.length;
  while ((i = text.indexOf('<', i)) !== -1) {
    const next = text.charCodeAt(i + 1);
    if (next === 63 /* ? */) {
      i = text.indexOf('?>', i + 2);
      if (i < 0) return;
      i += 2;
      continue;
    }
    if (next === 33 /* ! */) {
      if (text.startsWith('<!--', i)) {
        i = text.indexOf('-->', i + 4);
        if (i < 0) return;
        i += 3;
        continue;
      }
      if (text.startsWith('<![CDATA[', i)) {
        i = text.indexOf(']]>', i + 9);
        if (i < 0) return;
        i += 3;
        continue;
      }
      throw new FileReadFailure('xml_entities', text.slice(i, i + 20));
    }
    if (next === 47 /* / */) {
      depth--;
      i += 2;
      continue;
    }
    // A start tag: its end is the first '>' outside a quoted attribute value.
    let j = i + 1;
    let quote = 0;
    for (; j < length; j++) {
      const c = text.charCodeAt(j);
      if (quote) {
        if (c === quote) quote = 0;
      } else if (c === 34 || c === 39) quote = c;
      else if (c === 62) break;
    }
    if (j >= length) return;
    if (text.charCodeAt(j - 1) !== 47 /* / */ && ++depth > maxDepth) throw new FileReadFailure('too_deep', `deeper than ${maxDepth}`);
    i = j + 1;
  }
}
