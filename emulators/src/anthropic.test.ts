// The official `@anthropic-ai/sdk` against the emulator: it must not notice the difference.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAnthropicEmulator } from './anthropic-test-client';
import { startAiEmulators, type RunningAiEmulators } from './index';

const MODEL = 'claude-sonnet-4-6';
const live = useAnthropicEmulator();

async function collect(prompt: string, maxTokens = 1024) {
  const stream = await live.client.messages.create({
    model: MODEL,
    max_tokens: maxTokens,
    system: 'You are helpful.',
    messages: [{ role: 'user', content: prompt }],
    stream: true,
  });
  const types: string[] = [];
  const deltas: string[] = [];
  let stopReason: string | null = null;
  let inputTokens = 0;
  let outputTokens = 0;
  for await (const event of stream) {
    types.push(event.type);
    if (event.type === 'message_start') inputTokens = event.message.usage.input_tokens;
    if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') deltas.push(event.delta.text);
    if (event.type === 'message_delta') {
      stopReason = event.delta.stop_reason;
      outputTokens = event.usage.output_tokens;
    }
  }
  return { types, deltas, text: deltas.join(''), stopReason, inputTokens, outputTokens };
}

describe('Anthropic emulator', () => {
  it('streams the Messages events in order with text deltas, end_turn and usage', async () => {
    const result = await collect('Write about mountains');
    expect(result.types[0]).toBe('message_start');
    expect(result.types[1]).toBe('content_block_start');
    expect(result.types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    expect(result.deltas).toHaveLength(120);
    expect(result.stopReason).toBe('end_turn');
    expect(result.inputTokens).toBe(3 + 3);
    expect(result.outputTokens).toBe(120);
  });

  it('stops with max_tokens when the limit is reached', async () => {
    const result = await collect('Short please', 6);
    expect(result.deltas).toHaveLength(6);
    expect(result.stopReason).toBe('max_tokens');
    expect(result.outputTokens).toBe(6);
  });

  it('answers without streaming with the same deterministic text', async () => {
    const streamed = await collect('Deterministic?');
    const message = await live.client.messages.create({ model: MODEL, max_tokens: 1024, system: 'You are helpful.', messages: [{ role: 'user', content: 'Deterministic?' }] });
    expect(message.type).toBe('message');
    expect(message.stop_reason).toBe('end_turn');
    expect(message.content[0].type === 'text' && message.content[0].text).toBe(streamed.text);
    expect(message.usage.output_tokens).toBe(120);
  });

  it('works through the SDK stream helper (finalMessage)', async () => {
    const final = await live.client.messages.stream({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'helper' }] }).finalMessage();
    expect(final.stop_reason).toBe('max_tokens');
    expect(final.content[0].type).toBe('text');
  });

  it.each([
    [401, Anthropic.AuthenticationError, 'authentication_error'],
    [429, Anthropic.RateLimitError, 'rate_limit_error'],
    [500, Anthropic.InternalServerError, 'api_error'],
  ] as const)('answers [error:%i] with the typed SDK error', async (status, ErrorClass, type) => {
    const error = await live.client.messages
      .create({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: `fail [error:${status}]` }], stream: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(status);
    expect((error as InstanceType<typeof Anthropic.APIError>).type).toBe(type);
  });

  it('fails on demand with failNext and counts requests', async () => {
    live.emulator.resetStats();
    live.emulator.failNext(529, 2);
    for (let i = 0; i < 2; i++) {
      const error = await live.client.messages.create({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
      expect((error as InstanceType<typeof Anthropic.APIError>).type).toBe('overloaded_error');
    }
    await live.client.messages.create({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] });
    expect(live.emulator.stats).toMatchObject({ generations: 3, errors: 2, completed: 1 });
    // SDK versions send the key as x-api-key or as a bearer token; the emulator takes both.
    const headers = live.emulator.stats.lastHeaders ?? {};
    expect(String(headers['x-api-key'] ?? headers.authorization)).toMatch(/^(Bearer )?sk-ant-test$/);
  });

  it('drops the connection mid-stream with [disconnect:N]', async () => {
    const deltas: string[] = [];
    const error = await (async () => {
      const stream = await live.client.messages.create({ model: MODEL, max_tokens: 500, messages: [{ role: 'user', content: 'drop [disconnect:20]' }], stream: true });
      for await (const event of stream) if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') deltas.push(event.delta.text);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toMatch(/terminated|connection|closed/i);
    expect(deltas).toHaveLength(20);
  });

  it('sends an error event mid-stream with [stream-error:N]', async () => {
    const error = await (async () => {
      const stream = await live.client.messages.create({ model: MODEL, max_tokens: 500, messages: [{ role: 'user', content: 'oops [stream-error:2]' }], stream: true });
      for await (const event of stream) void event;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).type).toBe('overloaded_error');
  });

  it('requires max_tokens, like the real API', async () => {
    const res = await fetch(`${live.emulator.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } });
  });
});

describe('startAiEmulators', () => {
  let both: RunningAiEmulators;
  beforeAll(async () => {
    both = await startAiEmulators();
  });
  afterAll(() => both.close());

  it('starts both emulators on distinct free ports', async () => {
    expect(both.openai.port).not.toBe(both.anthropic.port);
    const res = await fetch(`${both.anthropic.url}/v1/models`, { headers: { 'x-api-key': 'k' } });
    expect(res.status).toBe(200);
    const list = (await res.json()) as { data: { id: string }[] };
    expect(list.data.map((m) => m.id)).toContain(MODEL);
  });
});
