// The official `openai` SDK's embeddings call against the emulator: shapes, dimensions, errors, closeness.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from './http-kit';
import { startOpenAiEmulator } from './openai';
import { embedText } from './openai-embeddings';

let emulator: RunningEmulator;
let client: OpenAI;

beforeAll(async () => {
  emulator = await startOpenAiEmulator({ port: 0, host: '127.0.0.1', apiKey: 'sk-test-key-123456' });
  client = new OpenAI({ apiKey: 'sk-test-key-123456', baseURL: emulator.url, maxRetries: 0 });
});
afterAll(() => emulator.close());

const cosine = (a: number[], b: number[]) => a.reduce((sum, v, i) => sum + v * b[i], 0);

describe('POST /v1/embeddings', () => {
  it('answers the SDK (base64 by default) with unit vectors of the native or asked dimensions', async () => {
    const native = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'Public education in Spain' });
    expect(native.object).toBe('list');
    expect(native.model).toBe('text-embedding-3-small');
    expect(native.data[0].embedding).toHaveLength(1536);
    expect(Math.hypot(...native.data[0].embedding)).toBeCloseTo(1, 5);
    expect(native.usage.prompt_tokens).toBeGreaterThan(0);

    const small = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['one text', 'another text'], dimensions: 64, encoding_format: 'float' });
    expect(small.data.map((d) => [d.index, d.embedding.length])).toEqual([
      [0, 64],
      [1, 64],
    ]);
  });

  it('is deterministic and keeps similar texts closer than unrelated ones (accents folded)', async () => {
    const { data } = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: ['La educación pública en España', 'educacion publica', 'Recipes for chocolate cake'],
      encoding_format: 'float',
    });
    const [spanish, query, cake] = data.map((d) => d.embedding);
    expect(cosine(spanish, query)).toBeGreaterThan(0.5);
    expect(cosine(spanish, cake)).toBeLessThan(0.3);
    // The SDK decoded base64 floats to the same numbers the function gives.
    const again = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'educacion publica' });
    embedText('educacion publica', 1536).forEach((v, i) => expect(again.data[0].embedding[i]).toBeCloseTo(v, 6));
  });

  it("refuses what OpenAI refuses: unknown model, empty input, too many dimensions, a bad key, failNext", async () => {
    await expect(client.embeddings.create({ model: 'gpt-4o-mini', input: 'x' })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    await expect(client.embeddings.create({ model: 'text-embedding-3-small', input: '' })).rejects.toMatchObject({ status: 400 });
    await expect(client.embeddings.create({ model: 'text-embedding-3-small', input: 'x', dimensions: 5000 })).rejects.toMatchObject({ status: 400 });
    const stranger = new OpenAI({ apiKey: 'sk-someone-else', baseURL: emulator.url, maxRetries: 0 });
    await expect(stranger.embeddings.create({ model: 'text-embedding-3-small', input: 'x' })).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
    emulator.failNext(429);
    await expect(client.embeddings.create({ model: 'text-embedding-3-small', input: 'x' })).rejects.toMatchObject({ status: 429 });
    await expect(client.embeddings.create({ model: 'text-embedding-3-small', input: 'x' })).resolves.toBeTruthy();
  });
});
