// OpenAI's POST /v1/embeddings (issue 13 item 8): deterministic vectors that keep similar texts close, so
// the knowledge area's vector search runs its real code (the official SDK, pgvector) offline.
// A text's vector is a hashed bag of its word stems (lower-cased, accents folded, the first 5 letters:
// "education" and "educación" share "educa"), each stem adding ±1 to one coordinate, L2-normalized.
// Texts sharing words point the same way; unrelated texts are nearly orthogonal.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { countTokens, parseDirectives } from './answer';
import { sendJson } from './http-kit';
import type { ProviderRuntime } from './provider-server';

/** The models OpenAI serves for embeddings and their native dimensions. */
export const EMBEDDING_MODELS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

const STEM_LENGTH = 5;
const MAX_INPUTS = 2048;

/** FNV-1a: a small stable hash, so a stem lands on the same coordinate in every run. */
function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

export function wordStems(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 3)
    .map((word) => word.slice(0, STEM_LENGTH));
}

/** The emulator's embedding of `text` in `dimensions` coordinates (unit length; zero for a text without words). */
export function embedText(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const stem of wordStems(text)) {
    const hash = fnv1a(stem);
    vector[hash % dimensions] += (fnv1a(stem, hash) & 1) === 0 ? 1 : -1;
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((v) => v / norm);
}

/** float32 little-endian bytes in base64: what the SDK asks for by default (`encoding_format: 'base64'`). */
function base64Floats(vector: number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}

/** Answers POST /v1/embeddings after the caller has checked the key. */
export async function handleEmbeddings(
  req: IncomingMessage,
  res: ServerResponse,
  runtime: ProviderRuntime,
  fail: (res: ServerResponse, status: number, detail?: { message?: string; model?: string }) => void,
): Promise<void> {
  const body = await runtime.readGenerationBody(req, (message) => fail(res, 400, { message }));
  if (!body) return;
  const model = typeof body.model === 'string' ? body.model : '';
  if (!model) return fail(res, 400, { message: 'you must provide a model parameter' });
  const native = EMBEDDING_MODELS[model];
  if (!native || !runtime.servesModel(model)) return fail(res, 404, { model });
  const inputs = typeof body.input === 'string' ? [body.input] : body.input;
  if (!Array.isArray(inputs) || inputs.length === 0 || inputs.length > MAX_INPUTS || inputs.some((i) => typeof i !== 'string' || i === '')) {
    return fail(res, 400, { message: "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference." });
  }
  let dimensions = native;
  if (body.dimensions !== undefined) {
    const asked = body.dimensions;
    if (model === 'text-embedding-ada-002') return fail(res, 400, { message: 'This model does not support specifying dimensions.' });
    if (typeof asked !== 'number' || !Number.isInteger(asked) || asked < 1 || asked > native) {
      return fail(res, 400, { message: `Invalid 'dimensions': must be between 1 and ${native}.` });
    }
    dimensions = asked;
  }
  const texts = inputs as string[];
  // failNext, or an `[error:STATUS]` in the first input, as for generations.
  const forced = runtime.forcedStatus({ tokens: [], finishReason: 'stop', promptTokens: 0, delayMs: 0, directives: parseDirectives(texts[0]) });
  if (forced != null) return fail(res, forced, { model });
  const asBase64 = body.encoding_format === 'base64';
  const tokens = texts.reduce((sum, text) => sum + countTokens(text), 0);
  runtime.stats.completed++;
  sendJson(res, 200, {
    object: 'list',
    data: texts.map((text, index) => {
      const vector = embedText(text, dimensions);
      return { object: 'embedding', index, embedding: asBase64 ? base64Floats(vector) : vector };
    }),
    model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}
