// Prepares an export's markdown for the parser in one linear pass over its lines. micromark is linear on
// ordinary text but not on every input: each container nesting level multiplies its work (10,000 nested
// "> " took minutes) and some resolvers (emphasis, setext headings, list exits) are quadratic in the size of
// the document they run on. So:
//  - container markers ("> ", "- ", "1. ") that would open a level past column NESTING_MAX_COLUMN are
//    escaped ("\>") and print as the literal character, bounding the depth at about 32 levels;
//  - the text is cut into pieces of about PIECE_TARGET characters, parsed one by one. Cuts go where they
//    change nothing (a blank line before a line that starts at column 0), else before a line at column 0
//    (a top-level list item keeps its sub-items), else at any line break, else at a space; never inside
//    fenced code. A table cut in the middle carries its header into the next piece.
// What remains quadratic then runs on bounded pieces; the export's time limit covers the rest.

export const NESTING_MAX_COLUMN = 64;
export const PIECE_TARGET = 4_000;

export interface Piece {
  text: string;
  /** The piece starts with the header and divider rows of the previous piece's table (to drop again). */
  continuesTable: boolean;
}

const LIST_MARKER = /^(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$)/;
const FENCE = /^(`{3,}|~{3,})/;
const TABLE_DIVIDER = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;

interface Fence {
  char: string;
  length: number;
}

/** Escapes a container marker past the nesting limit; returns the line and the text after its containers. */
function capNesting(line: string, escape: boolean): { line: string; rest: string } {
  let column = 0;
  let i = 0;
  // The loop advances at least one character per turn: linear in the line's length.
  while (i < line.length) {
    const ch = line[i];
    if (ch === ' ') {
      column++;
      i++;
      continue;
    }
    if (ch === '\t') {
      column += 4 - (column % 4);
      i++;
      continue;
    }
    const marker = ch === '>' ? '>' : LIST_MARKER.exec(line.slice(i, i + 12))?.[0];
    if (!marker) break;
    if (column >= NESTING_MAX_COLUMN) {
      if (!escape) break;
      // "\>" and "\-" print the character; in "12)" the delimiter is escaped ("12\)").
      const at = marker.length > 1 ? i + marker.length - 1 : i;
      return { line: `${line.slice(0, at)}\\${line.slice(at)}`, rest: line.slice(i) };
    }
    column += marker.length;
    i += marker.length;
  }
  return { line, rest: line.slice(i) };
}

/** The position of the last space in `text` before `limit` (after the first quarter), else `limit`. */
function cutInLine(text: string, limit: number): number {
  const space = text.lastIndexOf(' ', limit);
  if (space > limit / 4) return space + 1;
  // Never between the halves of a surrogate pair.
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit + 1 : limit;
}

export function markdownPieces(markdown: string): Piece[] {
  const pieces: Piece[] = [];
  let current: string[] = [];
  let size = 0;
  let continuesTable = false;
  /** Indexes in `current` where the next piece may start: where a cut changes nothing, and the last line break. */
  let safeCut = -1;
  let rootCut = -1;
  let lineCut = -1;
  let fence: Fence | null = null;
  /** Index in `current` of the open table's header row. */
  let tableStart: number | null = null;
  let previousBlank = true;

  const flush = (upTo: number) => {
    pieces.push({ text: current.slice(0, upTo).join('\n'), continuesTable });
    let rest = current.slice(upTo);
    continuesTable = false;
    if (tableStart !== null && tableStart < upTo && rest.length) {
      // The cut splits a table: the next piece repeats its header (dropped again when the pieces are joined).
      rest = [current[tableStart], current[tableStart + 1], ...rest];
      continuesTable = true;
      tableStart = 0;
    } else if (tableStart !== null) tableStart = tableStart >= upTo ? tableStart - upTo : null;
    current = rest;
    size = rest.reduce((sum, l) => sum + l.length + 1, 0);
    safeCut = -1;
    rootCut = -1;
    lineCut = -1;
  };

  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    // A piece may start at this line only if the line does not sit inside fenced code (its closing fence included).
    const cuttable = fence === null;
    const { line, rest } = capNesting(raw, cuttable);
    const blank = line.trim() === '';
    const fenceMark = FENCE.exec(rest.trimStart())?.[1];
    if (fence) {
      if (fenceMark && fenceMark[0] === fence.char && fenceMark.length >= fence.length && rest.trim() === fenceMark) fence = null;
    } else if (fenceMark && !(fenceMark[0] === '`' && rest.trimStart().slice(fenceMark.length).includes('`'))) {
      fence = { char: fenceMark[0], length: fenceMark.length };
    }
    // A table is a row with a pipe followed by a divider row; it ends at a line without a pipe.
    if (tableStart !== null && !line.includes('|')) tableStart = null;
    if (tableStart === null && !fence && current.length && current[current.length - 1].includes('|') && line.includes('-') && TABLE_DIVIDER.test(line)) {
      tableStart = current.length - 1;
    }

    if (current.length && cuttable) {
      const atRoot = !blank && !/^\s/.test(line);
      if (atRoot && previousBlank) safeCut = current.length;
      if (atRoot) rootCut = current.length;
      lineCut = current.length;
    }
    current.push(line);
    size += line.length + 1;
    previousBlank = blank;

    while (size > PIECE_TARGET && !fence) {
      const tableDivider = (tableStart ?? -2) + 1;
      if (safeCut > 0) flush(safeCut);
      else if (rootCut > 0 && rootCut !== tableDivider) flush(rootCut);
      else if (lineCut > 0 && lineCut !== tableDivider) flush(lineCut);
      else if (current.length > 1) flush(current.length);
      else {
        // One long line: cut it at a space (the parts become separate paragraphs).
        const line = current[0];
        const at = cutInLine(line, PIECE_TARGET);
        if (at >= line.length) break;
        // The tail starts a line of its own: its container markers are capped again.
        current = [line.slice(0, at), capNesting(line.slice(at), true).line];
        flush(1);
      }
    }
  }
  if (current.length) pieces.push({ text: current.join('\n'), continuesTable });
  return pieces;
}
