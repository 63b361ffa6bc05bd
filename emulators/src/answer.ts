// The emulated model: a deterministic markdown answer built from the prompt, cut into word tokens,
// plus the magic switches a prompt may carry for tests and benchmarks.

/** Per-request switches written in the last user message, e.g. `[words:800] [rate:50] Tell me...`. */
export interface Directives {
  /** Answer length in tokens (words). */
  words: number | null;
  /** Answer with this HTTP error status instead of text. */
  error: number | null;
  /** Drop the socket after this many tokens (mid-stream). */
  disconnect: number | null;
  /** Send a provider error event after this many tokens (mid-stream, connection stays up). */
  streamError: number | null;
  /** Tokens per second; 0 = no delay. */
  rate: number | null;
  /** Answer with the transcript received (role: content), to check what the caller sent. */
  echo: boolean;
}

export const DEFAULT_ANSWER_WORDS = 120;
/** Keeps a typo like `[words:99999999]` from exhausting memory. */
export const MAX_ANSWER_WORDS = 50_000;

const DIRECTIVE = /\[(words|error|disconnect|stream-error|rate):(\d{1,9})\]|\[echo\]/gi;

export function parseDirectives(prompt: string): Directives {
  const found: Directives = { words: null, error: null, disconnect: null, streamError: null, rate: null, echo: false };
  for (const match of prompt.matchAll(DIRECTIVE)) {
    if (!match[1]) {
      found.echo = true;
      continue;
    }
    const value = Number(match[2]);
    switch (match[1].toLowerCase()) {
      case 'words':
        found.words = Math.min(Math.max(value, 1), MAX_ANSWER_WORDS);
        break;
      case 'error':
        if (value >= 400 && value <= 599) found.error = value;
        break;
      case 'disconnect':
        found.disconnect = value;
        break;
      case 'stream-error':
        found.streamError = value;
        break;
      case 'rate':
        found.rate = value;
        break;
    }
  }
  return found;
}

export function stripDirectives(prompt: string): string {
  return prompt.replace(DIRECTIVE, ' ').replace(/\s+/g, ' ').trim();
}

/** Splits text into tokens of one word plus the whitespace after it (leading whitespace joins the first). */
export function tokenize(text: string): string[] {
  const tokens = text.match(/\s*\S+\s*/g) ?? [];
  return tokens.length ? tokens : text ? [text] : [];
}

/** Rough token count of a prompt, on the same one-word-one-token scale as the answers. */
export function countTokens(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

// FNV-1a then mulberry32: tiny, fast and stable across Node versions.
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function seededRandom(seed: number): () => number {
  let state = seed || 1;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VOCABULARY = (
  'writing draft audience voice story message clear simple idea reader headline brand content plan goal ' +
  'value example detail outline tone structure paragraph insight research focus topic angle hook call action ' +
  'review edit polish context benefit feature result team customer product launch campaign channel post email ' +
  'script summary question answer strategy timeline budget metric growth signal pattern method approach note ' +
  'careful strong bright quiet bold steady fresh direct warm honest useful practical concise vivid'
).split(' ');
const CONNECTORS = ['and', 'with', 'for', 'about', 'because', 'while', 'so', 'then', 'when', 'through'];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

function sentence(random: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(i > 0 && i % 5 === 3 ? pick(random, CONNECTORS) : pick(random, VOCABULARY));
  const text = out.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}

/** A paragraph of exactly `words` words. */
function paragraph(random: () => number, words: number): string {
  const sentences: string[] = [];
  let left = words;
  while (left > 0) {
    const size = Math.min(left, 6 + Math.floor(random() * 10));
    sentences.push(sentence(random, size));
    left -= size;
  }
  return sentences.join(' ');
}

function bulletList(random: () => number): string {
  const items = 3 + Math.floor(random() * 3);
  return Array.from({ length: items }, () => `- **${pick(random, VOCABULARY)}**: ${sentence(random, 4)}`).join('\n');
}

function table(random: () => number): string {
  const rows = Array.from({ length: 3 }, (_, i) => `| ${pick(random, VOCABULARY)} | ${1 + Math.floor(random() * 99)} | ${i === 0 ? 'yes' : 'no'} |`);
  return ['| Item | Score | Ready |', '| --- | --- | --- |', ...rows].join('\n');
}

function codeBlock(random: () => number): string {
  const name = pick(random, VOCABULARY);
  return ['```ts', `const ${name} = ${Math.floor(random() * 1000)};`, `console.log('${name}', ${name} * 2);`, '```'].join('\n');
}

/**
 * The answer to a prompt: a short title from the prompt, paragraphs and — when there is room — a list,
 * a table and a code block, so the UI sees every markdown feature. Same prompt and length, same answer.
 */
export function composeAnswer(prompt: string, words: number = DEFAULT_ANSWER_WORDS): string {
  const random = seededRandom(hashText(`${words}:${prompt}`));
  const topic = stripDirectives(prompt).split(' ').slice(0, 6).join(' ').replace(/[*_`#|[\]<>]/g, '');
  const blocks: string[] = [];
  let count = 0;
  const add = (block: string) => {
    blocks.push(block);
    count += countTokens(block);
  };
  if (words >= 40 && topic) add(`### ${topic}`);
  if (words >= 90) {
    add(paragraph(random, Math.min(30, words - count - 60)));
    add(bulletList(random));
    add(table(random));
    add(codeBlock(random));
  }
  while (count < words) add(paragraph(random, Math.min(words - count, 40 + Math.floor(random() * 40))));
  return blocks.join('\n\n');
}

/** The text an `[echo]` prompt answers with: what the caller sent, one turn per paragraph. */
export function echoTranscript(turns: { role: string; content: string }[]): string {
  return turns.map((turn) => `${turn.role}: ${stripDirectives(turn.content)}`).join('\n\n');
}

/**
 * Writes the answer to a request's turns (system included) instead of composeAnswer, or returns null to leave
 * it to composeAnswer. Not called for `[echo]` or `[words:N]` prompts.
 */
export type AnswerComposer = (turns: { role: string; content: string }[]) => string | null;

export interface PlannedAnswer {
  tokens: string[];
  finishReason: 'stop' | 'length';
  promptTokens: number;
  delayMs: number;
  directives: Directives;
}

/**
 * What the emulated model will do for one request: the tokens it sends (cut at `maxTokens`) and how fast.
 * `turns` are every message sent, system included; the switches are read from the last user message.
 */
export function planAnswer(
  turns: { role: string; content: string }[],
  options: { maxTokens: number | null; defaultDelayMs: number; compose?: AnswerComposer },
): PlannedAnswer {
  const lastUser = [...turns].reverse().find((turn) => turn.role === 'user')?.content ?? '';
  const directives = parseDirectives(lastUser);
  // A composer of the caller's (EmulatorOptions.compose) answers unless the prompt fixes the length or asks for an echo.
  const composed = directives.echo || directives.words != null ? null : (options.compose?.(turns) ?? null);
  const text = directives.echo ? echoTranscript(turns) : (composed ?? composeAnswer(lastUser, directives.words ?? DEFAULT_ANSWER_WORDS));
  let tokens = tokenize(text);
  let finishReason: PlannedAnswer['finishReason'] = 'stop';
  if (options.maxTokens != null && tokens.length > options.maxTokens) {
    tokens = tokens.slice(0, options.maxTokens);
    finishReason = 'length';
  }
  const delayMs = directives.rate == null ? options.defaultDelayMs : directives.rate === 0 ? 0 : 1000 / directives.rate;
  const promptTokens = turns.reduce((sum, turn) => sum + countTokens(turn.content), 0);
  return { tokens, finishReason, promptTokens, delayMs, directives };
}
