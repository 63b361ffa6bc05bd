// Reading the ideas out of a model's answer. The model is asked for a JSON array of strings, but answers are
// often sloppier: in a ```json fence, numbered or bulleted lines, a preface ("Here are 5 topics:"), bold
// markers, hashtags run together on one line. Anything readable is taken; the list is cut to the count asked.
import { IDEA_ITEM_MAX, type IdeaKind } from '@pluma/common/ideas';

/** One hashtag: the hash sign and letters, digits or underscores (any script: #café, #niño). */
const HASHTAG = /#[\p{L}\p{N}_]+/gu;
/** A list marker at the start of a line: -, *, +, •, 1., 1), (1), a. */
const LIST_MARKER = /^(?:[-*+•·‣▪–—]\s+|\(?\d{1,3}[.)](?!\d)\s*|\(?[a-z][.)]\s+)/iu;
const HEADING = /^#{1,6}\s+/;
const TABLE_ROW = /^\|.*\|$/;
const FENCE = /^(```|~~~)/;

/** Strings of a JSON array somewhere in the text (also inside a fence), or null. */
function jsonItems(text: string): string[] | null {
  const start = text.indexOf('[');
  const end = text.lastIndexOf(']');
  if (start < 0 || end <= start) return null;
  try {
    const parsed: unknown = JSON.parse(text.slice(start, end + 1));
    if (!Array.isArray(parsed)) return null;
    const items = parsed.flatMap((entry): string[] => {
      if (typeof entry === 'string') return [entry];
      if (typeof entry === 'number') return [String(entry)];
      // [{ "title": "..." }] and the like.
      if (entry && typeof entry === 'object') {
        const record = entry as Record<string, unknown>;
        const value = ['title', 'topic', 'hashtag', 'name', 'text', 'idea'].map((k) => record[k]).find((v) => typeof v === 'string');
        return typeof value === 'string' ? [value] : [];
      }
      return [];
    });
    return items.length ? items : null;
  } catch {
    return null;
  }
}

/** Markdown emphasis, code ticks and wrapping quotes off an item. */
function plain(item: string): string {
  return item
    .replace(/\*\*|__|`/g, '')
    .replace(/^[*_]+|[*_]+$/g, '')
    .trim()
    .replace(/^["“”'‘’«]+|["“”'‘’»]+$/g, '')
    .trim();
}

interface Line {
  text: string;
  listed: boolean;
}

/** The answer's lines that may hold ideas: no fences, code, tables or headings. */
function contentLines(text: string): Line[] {
  const lines: Line[] = [];
  let inFence = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence || !line || TABLE_ROW.test(line) || HEADING.test(line)) continue;
    const listed = LIST_MARKER.test(line);
    const body = plain(line.replace(LIST_MARKER, ''));
    if (body) lines.push({ text: body, listed });
  }
  return lines;
}

/** The lines that are ideas: the list when the answer has one (the rest is a preface or a closing remark), else every line but a preface ending with ':'. */
function ideaLines(lines: Line[]): string[] {
  const listed = lines.filter((l) => l.listed);
  return (listed.length ? listed : lines.filter((l) => !l.text.endsWith(':'))).map((l) => l.text);
}

/** '#word' from a hashtag or a phrase ("content marketing" → '#ContentMarketing'); null when nothing is left. */
export function toHashtag(value: string): string | null {
  const trimmed = value.trim();
  const direct = trimmed.match(HASHTAG);
  if (direct && direct[0] === trimmed) return trimmed;
  const words = trimmed.replace(/^#+/, '').split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  if (!words.length) return null;
  const joined = words.length === 1 ? words[0] : words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  return `#${joined}`;
}

function unique(items: string[], max: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    const key = item.toLocaleLowerCase();
    if (!item || seen.has(key)) continue;
    seen.add(key);
    out.push(item);
    if (out.length === max) break;
  }
  return out;
}

/** A topic: its text, shortened to IDEA_ITEM_MAX at a word boundary when too long. */
function topicOf(value: string): string {
  const text = plain(value).replace(/\s+/g, ' ');
  if (text.length <= IDEA_ITEM_MAX) return text;
  const cut = text.slice(0, IDEA_ITEM_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > IDEA_ITEM_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * The ideas in a model's answer, at most `count`: topics as short titles, hashtags as '#word', both without
 * repeats (case-insensitive). Empty when nothing readable was found.
 */
export function parseIdeas(kind: IdeaKind, answer: string, count: number): string[] {
  const fromJson = jsonItems(answer);
  if (kind === 'topics') {
    const items = fromJson ?? ideaLines(contentLines(answer));
    return unique(items.map(topicOf), count);
  }
  if (fromJson) return unique(fromJson.map((v) => toHashtag(plain(v))).filter((v): v is string => v !== null).map(clip), count);
  // Hashtags written as such anywhere in the answer ("#a #b #c" on one line, or one per line).
  const lines = contentLines(answer);
  const tagged = lines.flatMap((l) => l.text.match(HASHTAG) ?? []);
  if (tagged.length) return unique(tagged.map(clip), count);
  // Phrases instead: one per line or comma-separated; "Label: why" keeps the label.
  const phrases = ideaLines(lines).flatMap((l) => l.replace(/:.*$/, '').split(/[,;]/));
  return unique(phrases.map((p) => toHashtag(p)).filter((v): v is string => v !== null).map(clip), count);
}

const clip = (tag: string) => tag.slice(0, IDEA_ITEM_MAX);
