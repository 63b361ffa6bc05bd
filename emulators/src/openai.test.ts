// The official `openai` SDK against the emulator: it must not notice the difference.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from './http-kit';
import { startOpenAiEmulator } from './openai';

let emulator: RunningEmulator;
let client: OpenAI;

beforeAll(async () => {
  emulator = await startOpenAiEmulator({ port: 0, host: '127.0.0.1' });
  client = new OpenAI({ apiKey: 'sk-test-key-123456', baseURL: emulator.url, maxRetries: 0 });
});
afterAll(() => emulator.close());

async function collect(prompt: string, extra: { max_tokens?: number; max_completion_tokens?: number } = {}) {
  const stream = await client.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: prompt },
    ],
    stream: true,
    stream_options: { include_usage: true },
    ...extra,
  });
  const deltas: string[] = [];
  let finishReason: string | null = null;
  let usage: OpenAI.CompletionUsage | null | undefined = null;
  let role: string | undefined;
  for await (const chunk of stream) {
    expect(chunk.object).toBe('chat.completion.chunk');
    expect(chunk.model).toBe('gpt-4o-mini');
    const choice = chunk.choices[0];
    if (choice?.delta.role) role = choice.delta.role;
    if (choice?.delta.content) deltas.push(choice.delta.content);
    if (choice?.finish_reason) finishReason = choice.finish_reason;
    if (chunk.usage) usage = chunk.usage;
  }
  return { deltas, text: deltas.join(''), finishReason, usage, role };
}

describe('OpenAI emulator', () => {
  it('streams one word per chunk, then finish_reason stop and a usage chunk', async () => {
    const result = await collect('Write about the sea');
    expect(result.role).toBe('assistant');
    expect(result.deltas).toHaveLength(120);
    expect(result.deltas.every((d) => d.trim().split(/\s+/).length === 1)).toBe(true);
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toEqual(expect.objectContaining({ prompt_tokens: 7, completion_tokens: 120, total_tokens: 127 }));
  });

  it('gives the same answer to the same prompt, streamed or not', async () => {
    const streamed = await collect('Same prompt twice');
    const again = await collect('Same prompt twice');
    const whole = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Same prompt twice' }],
    });
    expect(again.text).toBe(streamed.text);
    expect(whole.object).toBe('chat.completion');
    expect(whole.choices[0].message.content).toBe(streamed.text);
    expect(whole.choices[0].finish_reason).toBe('stop');
    expect(whole.usage?.completion_tokens).toBe(120);
  });

  it('stops with finish_reason length at max_tokens or max_completion_tokens', async () => {
    const byMaxTokens = await collect('Cut me short', { max_tokens: 5 });
    expect(byMaxTokens.deltas).toHaveLength(5);
    expect(byMaxTokens.finishReason).toBe('length');
    expect(byMaxTokens.usage?.completion_tokens).toBe(5);
    const byCompletion = await collect('Cut me short [words:30]', { max_completion_tokens: 3 });
    expect(byCompletion.deltas).toHaveLength(3);
    expect(byCompletion.finishReason).toBe('length');
  });

  it('honours [words:N] and omits usage when not asked for', async () => {
    const stream = await client.chat.completions.create({ model: 'grok-2-latest', messages: [{ role: 'user', content: 'Long [words:800]' }], stream: true });
    let count = 0;
    for await (const chunk of stream) {
      expect(chunk.usage).toBeUndefined();
      if (chunk.choices[0]?.delta.content) count++;
    }
    expect(count).toBe(800);
  });

  it('lists models', async () => {
    const page = await client.models.list();
    expect(page.data.map((m) => m.id)).toContain('gpt-4o-mini');
  });

  it.each([
    [401, OpenAI.AuthenticationError, 'invalid_api_key'],
    [429, OpenAI.RateLimitError, 'rate_limit_exceeded'],
    [500, OpenAI.InternalServerError, null],
  ] as const)('answers [error:%i] with the typed SDK error', async (status, ErrorClass, code) => {
    const error = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `fail [error:${status}]` }], stream: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(status);
    expect((error as InstanceType<typeof OpenAI.APIError>).code ?? null).toBe(code);
  });

  it('fails the next request on demand (failNext) and counts requests', async () => {
    emulator.resetStats();
    emulator.failNext(503);
    const error = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(emulator.stats).toMatchObject({ generations: 2, errors: 1, completed: 1 });
    expect(emulator.stats.lastHeaders?.authorization).toBe('Bearer sk-test-key-123456');
  });

  it('rejects a wrong key when the emulator requires one, masking it in the message', async () => {
    const strict = await startOpenAiEmulator({ apiKey: 'sk-right-key-000' });
    try {
      const wrong = new OpenAI({ apiKey: 'sk-wrong-key-999', baseURL: strict.url, maxRetries: 0 });
      const error = await wrong.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect((error as Error).message).not.toContain('sk-wrong-key-999');
      const right = new OpenAI({ apiKey: 'sk-right-key-000', baseURL: strict.url, maxRetries: 0 });
      const ok = await right.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
      expect(ok.choices[0].message.content).toBeTruthy();
    } finally {
      await strict.close();
    }
  });

  it('drops the connection mid-stream with [disconnect:N] after N deltas', async () => {
    emulator.resetStats();
    const deltas: string[] = [];
    const error = await (async () => {
      const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'drop [disconnect:20]' }], stream: true });
      for await (const chunk of stream) if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toMatch(/terminated|connection|closed/i);
    expect(deltas).toHaveLength(20);
    expect(emulator.stats.disconnects).toBe(1);
  });

  it('sends an error frame mid-stream with [stream-error:N]', async () => {
    const deltas: string[] = [];
    const error = await (async () => {
      const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'oops [stream-error:4]' }], stream: true });
      for await (const chunk of stream) if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).type).toBe('server_error');
    expect(deltas).toHaveLength(4);
  });

  it('paces tokens with [rate:N] and stops writing when the client aborts', async () => {
    emulator.resetStats();
    const started = Date.now();
    await collect('Slow [rate:200] [words:40]');
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);

    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Very slow [rate:50]' }], stream: true },
      { signal: controller.signal },
    );
    let seen = 0;
    for await (const chunk of stream) {
      // Aborted after the third word; a chunk already read off the socket may still come out of the SDK's
      // buffer on a busy machine, so the loop leaves here: what is tested is that the emulator stops writing.
      if (chunk.choices[0]?.delta.content && ++seen === 3) {
        controller.abort();
        break;
      }
    }
    expect(seen).toBe(3);
    await expect.poll(() => emulator.stats.clientAborts, { timeout: 2000 }).toBe(1);
  });

  it('answers validation problems in OpenAI’s error shape', async () => {
    const res = await fetch(`${emulator.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-x', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [] }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; type: string; code: string | null } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toMatch(/messages/);
    const noKey = await fetch(`${emulator.url}/models`);
    expect(noKey.status).toBe(401);
  });
});
