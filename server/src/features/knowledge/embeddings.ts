// Chunk and query vectors (issue 13 item 3): OpenAI's embeddings through the official SDK, when the operator
// configured EMBEDDING_MODEL and an OpenAI key, and the database has pgvector (vector-support.ts). The
// model and dimensions travel with every stored vector, so a change of either is noticed and re-indexed.
import OpenAI from 'openai';
import type { AppContext } from '../../context';
import { providerSettings } from '../../platform/ai/settings';
import { hasVectorTable } from './vector-support';

export interface EmbeddingConfig {
  model: string;
  /** What the model returns (EMBEDDING_DIMENSIONS, else the model's native size, learnt from the first answer). */
  dimensions: number | null;
  client: OpenAI;
}

const BATCH = 64;
const REQUEST_TIMEOUT_MS = 60_000;

/** The embedding model in force, or null (full-text only): no model, no OpenAI key, or no pgvector. */
export async function embeddingConfig(ctx: AppContext): Promise<EmbeddingConfig | null> {
  const model = ctx.env.EMBEDDING_MODEL;
  if (!model) return null;
  const settings = await providerSettings(ctx);
  if (!settings.openai || !(await hasVectorTable(ctx))) return null;
  const client = new OpenAI({ apiKey: settings.openai.apiKey, baseURL: settings.openai.baseURL, maxRetries: 2, timeout: REQUEST_TIMEOUT_MS });
  return { model, dimensions: ctx.env.EMBEDDING_DIMENSIONS ?? null, client };
}

/** One vector per text, in order; `onBatch` reports the share done (0–1). */
export async function embedTexts(config: EmbeddingConfig, texts: string[], onBatch?: (done: number) => Promise<void>): Promise<number[][]> {
  const vectors: number[][] = [];
  for (let i = 0; i < texts.length; i += BATCH) {
    const response = await config.client.embeddings.create({
      model: config.model,
      input: texts.slice(i, i + BATCH),
      ...(config.dimensions ? { dimensions: config.dimensions } : {}),
    });
    const batch = [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    vectors.push(...batch);
    if (onBatch) await onBatch(Math.min(1, (i + BATCH) / texts.length));
  }
  return vectors;
}

/** pgvector's text form of a vector: '[0.1,0.2,…]'. */
export function vectorLiteral(vector: number[]): string {
  return `[${vector.map((v) => (Number.isFinite(v) ? v : 0)).join(',')}]`;
}
