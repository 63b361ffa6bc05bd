// The steps both provider emulators share (provider-server.ts), checked on the wire against each of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicEmulator } from './anthropic';
import type { EmulatorOptions, RunningEmulator } from './http-kit';
import { startOpenAiEmulator } from './openai';

interface Provider {
  name: string;
  start(options: EmulatorOptions): Promise<RunningEmulator>;
  requestIdHeader: string;
  generationUrl(emulator: RunningEmulator): string;
  headers(key: string): Record<string, string>;
  body(model: string, prompt: string, stream?: boolean): Record<string, unknown>;
}

const PROVIDERS: Provider[] = [
  {
    name: 'OpenAI',
    start: startOpenAiEmulator,
    requestIdHeader: 'x-request-id',
    generationUrl: (emulator) => `${emulator.url}/chat/completions`,
    headers: (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' }),
    body: (model, prompt, stream = false) => ({ model, stream, messages: [{ role: 'user', content: prompt }] }),
  },
  {
    name: 'Anthropic',
    start: startAnthropicEmulator,
    requestIdHeader: 'request-id',
    generationUrl: (emulator) => `${emulator.url}/v1/messages`,
    headers: (key) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }),
    body: (model, prompt, stream = false) => ({ model, stream, max_tokens: 100, messages: [{ role: 'user', content: prompt }] }),
  },
];

describe.each(PROVIDERS)('$name emulator plumbing', (provider) => {
  let emulator: RunningEmulator;
  const post = (body: unknown, key = 'right-key') =>
    fetch(provider.generationUrl(emulator), { method: 'POST', headers: provider.headers(key), body: typeof body === 'string' ? body : JSON.stringify(body) });

  beforeAll(async () => {
    emulator = await provider.start({ apiKey: 'right-key', models: ['served-model'] });
  });
  afterAll(() => emulator.close());

  it('tags answers, streams and errors with the provider’s request-id header', async () => {
    const answer = await post(provider.body('served-model', 'hi'));
    expect(answer.status).toBe(200);
    expect(answer.headers.get(provider.requestIdHeader)).toMatch(/^req_[0-9a-f]{24}$/);
    const stream = await post(provider.body('served-model', 'hi', true));
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    expect(stream.headers.get(provider.requestIdHeader)).toMatch(/^req_[0-9a-f]{24}$/);
    await stream.text();
    const failed = await post(provider.body('served-model', 'hi [error:429]'));
    expect(failed.status).toBe(429);
    expect(failed.headers.get(provider.requestIdHeader)).toMatch(/^req_[0-9a-f]{24}$/);
    expect(failed.headers.get('retry-after')).toBe('20');
  });

  it('serves only the configured key and models', async () => {
    expect((await post(provider.body('served-model', 'hi'), 'wrong-key')).status).toBe(401);
    expect((await post(provider.body('other-model', 'hi'))).status).toBe(404);
  });

  it('answers a body that is not JSON with 400 and does not count it as a generation', async () => {
    emulator.resetStats();
    const res = await post('{not json');
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('We could not parse the JSON body of your request.');
    expect(emulator.stats).toMatchObject({ requests: 1, generations: 0, errors: 1 });
  });

  it('drops the socket instead of a non-streamed answer with [disconnect:N]', async () => {
    emulator.resetStats();
    await expect(post(provider.body('served-model', 'bye [disconnect:3]'))).rejects.toThrow();
    expect(emulator.stats).toMatchObject({ generations: 1, disconnects: 1, completed: 0 });
  });

  it('counts streams and the forced failures of failNext', async () => {
    emulator.resetStats();
    emulator.failNext(503, 2);
    expect((await post(provider.body('served-model', 'hi'))).status).toBe(503);
    expect((await post(provider.body('served-model', 'hi', true))).status).toBe(503);
    const stream = await post(provider.body('served-model', 'hi', true));
    await stream.text();
    expect(emulator.stats).toMatchObject({ requests: 3, generations: 3, errors: 2, streams: 1, completed: 1 });
  });
});
