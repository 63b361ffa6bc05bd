// Passages of about 1,000–1,500 characters with overlap (issue 13 item 3), each with the page and heading
// where it starts; and the file's language, which picks its text search configuration.
import type { TextBlock } from './extract';

export const CHUNK_MIN = 1_000;
export const CHUNK_MAX = 1_500;
export const CHUNK_OVERLAP = 200;

export interface TextChunk {
  ordinal: number;
  page: number | null;
  heading: string | null;
  text: string;
  /** Offset in the file's text (the blocks joined by blank lines). */
  startOffset: number;
}

const BLOCK_SEPARATOR = '\n\n';

/** The file's whole extracted text: what the chunks' offsets refer to. */
export function joinBlocks(blocks: TextBlock[]): string {
  return blocks.map((b) => b.text).join(BLOCK_SEPARATOR);
}

/** The best place to end a passage in text[from, to): a paragraph end, else a sentence end, else a space. */
function breakPoint(text: string, from: number, to: number): number {
  const window = text.slice(from, to);
  const paragraph = window.lastIndexOf('\n\n');
  if (paragraph >= 0) return from + paragraph;
  let sentence = -1;
  for (const match of window.matchAll(/[.!?;:…](?=\s)|\n/g)) sentence = match.index + match[0].length;
  if (sentence >= 0) return from + sentence;
  const space = window.lastIndexOf(' ');
  return space >= 0 ? from + space : to;
}

/**
 * Passages never cross a page or a heading: a citation names the page and heading the words are under.
 * Consecutive blocks of one page and heading form a section, cut on its own.
 */
export function chunkBlocks(blocks: TextBlock[], sizes = { min: CHUNK_MIN, max: CHUNK_MAX, overlap: CHUNK_OVERLAP }): TextChunk[] {
  const chunks: TextChunk[] = [];
  let offset = 0;
  let i = 0;
  while (i < blocks.length) {
    const { page, heading } = blocks[i];
    let j = i;
    while (j < blocks.length && blocks[j].page === page && blocks[j].heading === heading) j++;
    const section = joinBlocks(blocks.slice(i, j));
    for (const piece of cutSection(section, sizes)) {
      chunks.push({ ordinal: chunks.length, page, heading, text: piece.text, startOffset: offset + piece.start });
    }
    offset += section.length + BLOCK_SEPARATOR.length;
    i = j;
  }
  return chunks;
}

function cutSection(text: string, sizes: { min: number; max: number; overlap: number }): { text: string; start: number }[] {
  const pieces: { text: string; start: number }[] = [];
  let start = 0;
  while (start < text.length) {
    while (start < text.length && /\s/.test(text[start])) start++;
    if (start >= text.length) break;
    let end = text.length;
    if (end - start > sizes.max) end = breakPoint(text, start + sizes.min, start + sizes.max);
    let last = end;
    while (last > start && /\s/.test(text[last - 1])) last--;
    pieces.push({ text: text.slice(start, last), start });
    if (end >= text.length) break;
    // The next passage repeats the end of this one, from a word start, and always moves forward.
    let next = Math.max(start + 1, end - sizes.overlap);
    const space = text.indexOf(' ', next);
    if (space >= 0 && space < end) next = space + 1;
    start = next;
  }
  return pieces;
}

/** The text rebuilt from overlapping chunks in order (the whole file, when it fits the model's context). */
export function textFromChunks(chunks: { text: string; startOffset: number }[]): string {
  let out = '';
  let covered = 0;
  for (const chunk of chunks) {
    const end = chunk.startOffset + chunk.text.length;
    if (end <= covered) continue;
    if (chunk.startOffset > covered && out) out += BLOCK_SEPARATOR;
    out += chunk.text.slice(Math.max(0, covered - chunk.startOffset));
    covered = end;
  }
  return out;
}

export type KnowledgeLanguage = 'english' | 'spanish';

const SPANISH = new Set('de la que el en y los del se las por un para con no una su al es lo como más pero sus le ya o este sí porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos e esto mí antes algunos qué unos yo otro otras otra él tanto esa estos mucho quienes nada muchos cual poco ella estar estas algunas algo nosotros'.split(' '));
const ENGLISH = new Set('the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were her she there been has their one all would will what if can when who so no more its about into them only other than then some could these two may like out do any my our should also how such because most'.split(' '));

/**
 * English or Spanish, by common words in the first ~20,000 characters; `fallback` (the uploader's language)
 * when neither clearly wins.
 */
export function detectLanguage(text: string, fallback: KnowledgeLanguage = 'english'): KnowledgeLanguage {
  let spanish = 0;
  let english = 0;
  for (const word of text.slice(0, 20_000).toLowerCase().split(/[^\p{L}]+/u)) {
    if (SPANISH.has(word)) spanish++;
    if (ENGLISH.has(word)) english++;
  }
  if (spanish > english * 1.2) return 'spanish';
  if (english > spanish * 1.2) return 'english';
  return fallback;
}
