// The AI service over the real SDKs, pointed at the wire-protocol emulators through the env base URLs.
import { startAiEmulators, type RunningAiEmulators } from '@pluma/emulators/index';
import { eq } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import { appConfig } from '../../db/schema';
import { loadEnv } from '../../env';
import { createTestDatabase } from '../../test/test-db';
import { encryptSecret } from '../crypto/secret-box';
import { DemoEmulator } from '../../demo/ai';
import { MODEL_IDS } from './models';
import { createAiService } from './service';
import { providerSettingsChanged } from './settings';
import { ProviderError, type AiService, type ChatStreamEvent, type ChatStreamRequest } from './types';

const APP_SECRET = 'test-secret-test-secret-test-secret-0123';
let emulators: RunningAiEmulators;
let database: Database;
let dataDir: string;
const services: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  emulators = await startAiEmulators();
  database = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'pluma-ai-'));
});
afterAll(async () => {
  await Promise.all(services.map((s) => s.close()));
  await emulators.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});
afterEach(async () => {
  await database.db.delete(appConfig).where(eq(appConfig.key, 'openai_secret_key'));
  emulators.openai.resetStats();
  emulators.anthropic.resetStats();
});

/** A context like the app's, with only the given provider settings (the test process env is not read). */
async function serviceWith(env: Record<string, string>): Promise<{ ai: AiService; ctx: AppContext }> {
  const ctx: AppContext = {
    env: loadEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, APP_SECRET, LOG_LEVEL: 'silent', DEMO_AI: 'true', ...env }),
    database,
    db: database.db,
    services: {},
  };
  const ai = await createAiService(ctx, new DemoEmulator(0));
  services.push(ai);
  return { ai, ctx };
}

const openaiEnv = () => ({ OPENAI_API_KEY: 'sk-env-key-123456', OPENAI_BASE_URL: emulators.openai.url });
const anthropicEnv = () => ({ ANTHROPIC_API_KEY: 'sk-ant-key-123456', ANTHROPIC_BASE_URL: emulators.anthropic.url });
const xaiEnv = () => ({ XAI_API_KEY: 'xai-key-123456', XAI_BASE_URL: emulators.openai.url });
const compatEnv = () => ({ OPENAI_COMPAT_BASE_URL: emulators.openai.url, OPENAI_COMPAT_MODELS: 'llama3.1:8b, qwen2.5' });

function chat(model: string | null, prompt: string, extra: Partial<ChatStreamRequest> = {}): ChatStreamRequest {
  return {
    model,
    messages: [
      { role: 'system', content: 'You are a helpful writer.' },
      { role: 'user', content: prompt },
    ],
    ...extra,
  };
}

interface Collected {
  deltas: string[];
  done: Extract<ChatStreamEvent, { type: 'done' }> | null;
  error: unknown;
}

async function collect(ai: AiService, request: ChatStreamRequest, onDelta?: (count: number) => void): Promise<Collected> {
  const result: Collected = { deltas: [], done: null, error: null };
  try {
    for await (const event of ai.stream(request)) {
      if (event.type === 'delta') {
        result.deltas.push(event.text);
        onDelta?.(result.deltas.length);
      } else result.done = event;
    }
  } catch (error) {
    result.error = error;
  }
  return result;
}

describe('models on offer', () => {
  it('offers every configured provider with GPT 4o Mini as the only default', async () => {
    const { ai } = await serviceWith({ ...openaiEnv(), ...anthropicEnv(), ...xaiEnv(), ...compatEnv() });
    expect(await ai.listModels()).toEqual([
      { id: 'gpt-4o-mini', label: 'GPT 4o Mini', provider: 'openai', isDefault: true },
      { id: 'grok-2-latest', label: 'Grok', provider: 'xai', isDefault: false },
      { id: MODEL_IDS.claude, label: 'Claude', provider: 'anthropic', isDefault: false },
      { id: 'llama3.1:8b', label: 'llama3.1:8b', provider: 'compat', isDefault: false },
      { id: 'qwen2.5', label: 'qwen2.5', provider: 'compat', isDefault: false },
    ]);
    expect(await ai.providerOf(MODEL_IDS.claude)).toBe('anthropic');
    expect(await ai.providerOf(null)).toBe('openai');
  });

  it('demo mode: no key at all offers only the offline demo model, as the default', async () => {
    const { ai } = await serviceWith({});
    expect(await ai.listModels()).toEqual([{ id: 'demo', label: 'Demo (offline)', provider: 'demo', isDefault: true }]);
    expect(await ai.providerOf(null)).toBe('demo');
  });

  it('with an OpenAI key in the environment the demo model is not offered', async () => {
    const { ai } = await serviceWith(openaiEnv());
    const models = await ai.listModels();
    expect(models.map((m) => m.id)).toEqual(['gpt-4o-mini']);
    expect(models.some((m) => m.provider === 'demo')).toBe(false);
  });

  it('follows the admin-set openai_secret_key at runtime, and it wins over the environment key', async () => {
    const { ai, ctx } = await serviceWith({ OPENAI_BASE_URL: emulators.openai.url });
    expect((await ai.listModels()).map((m) => m.id)).toEqual(['demo']);

    await database.db.insert(appConfig).values({ key: 'openai_secret_key', value: encryptSecret(APP_SECRET, 'sk-admin-key-987654'), encrypted: true });
    // What saving the app configuration does after its commit (settings.test.ts goes through PUT /api/appconfig).
    providerSettingsChanged(ctx);
    expect((await ai.listModels()).map((m) => m.id)).toEqual(['gpt-4o-mini']);
    const result = await collect(ai, chat(null, 'Hello'));
    expect(result.done?.finishReason).toBe('stop');
    expect(emulators.openai.stats.lastHeaders?.authorization).toBe('Bearer sk-admin-key-987654');

    const both = await serviceWith(openaiEnv());
    await collect(both.ai, chat(null, 'Hello'));
    expect(emulators.openai.stats.lastHeaders?.authorization).toBe('Bearer sk-admin-key-987654');
  });

  it('offers nothing when demo mode is off and no key is set; streaming then fails clearly', async () => {
    const { ai } = await serviceWith({ DEMO_AI: 'false' });
    expect(await ai.listModels()).toEqual([]);
    const result = await collect(ai, chat(null, 'Hello'));
    expect(result.error).toBeInstanceOf(ProviderError);
    expect(result.error).toMatchObject({ status: 503, code: 'no_provider_configured' });
  });

  it('runs a model that is not offered (unknown, or its key removed) on the default model', async () => {
    const { ai } = await serviceWith(openaiEnv());
    const result = await collect(ai, chat(MODEL_IDS.claude, 'Hello'));
    expect(result.done?.finishReason).toBe('stop');
    expect(emulators.openai.stats.lastRequest?.model).toBe('gpt-4o-mini');
    expect(await ai.providerOf(MODEL_IDS.claude)).toBe('openai');
  });
});

describe('streaming', () => {
  it('streams deltas from OpenAI with finish reason and usage, asking for usage', async () => {
    const { ai } = await serviceWith(openaiEnv());
    const result = await collect(ai, chat('gpt-4o-mini', 'Write about rivers'));
    expect(result.error).toBeNull();
    expect(result.deltas).toHaveLength(120);
    expect(result.done).toEqual({ type: 'done', finishReason: 'stop', usage: { inputTokens: 5 + 3, outputTokens: 120 } });
    expect(emulators.openai.stats.lastRequest).toMatchObject({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true } });
    expect(emulators.openai.stats.lastHeaders?.authorization).toBe('Bearer sk-env-key-123456');
  });

  it('streams deltas from Anthropic, with the system turn as the system parameter', async () => {
    const { ai } = await serviceWith(anthropicEnv());
    const result = await collect(ai, chat(MODEL_IDS.claude, 'Write about rivers'));
    expect(result.error).toBeNull();
    expect(result.deltas).toHaveLength(120);
    expect(result.done).toEqual({ type: 'done', finishReason: 'stop', usage: { inputTokens: 5 + 3, outputTokens: 120 } });
    expect(emulators.anthropic.stats.lastRequest).toMatchObject({
      model: MODEL_IDS.claude,
      system: 'You are a helpful writer.',
      messages: [{ role: 'user', content: 'Write about rivers' }],
      stream: true,
    });
  });

  it('streams deltas from an OpenAI-compatible model and from Grok', async () => {
    const { ai } = await serviceWith({ ...compatEnv(), ...xaiEnv() });
    const compat = await collect(ai, chat('qwen2.5', 'Hi there', { maxTokens: 500 }));
    expect(compat.deltas.join('')).toMatch(/^### Hi there/);
    expect(compat.done?.finishReason).toBe('stop');
    expect(emulators.openai.stats.lastRequest).toMatchObject({ model: 'qwen2.5', max_tokens: 500 });
    expect(emulators.openai.stats.lastHeaders?.authorization).toBe('Bearer not-needed');

    const grok = await collect(ai, chat('grok-2-latest', 'Hi there'));
    expect(grok.deltas.join('')).toBe(compat.deltas.join(''));
    expect(emulators.openai.stats.lastRequest?.model).toBe('grok-2-latest');
    expect(emulators.openai.stats.lastHeaders?.authorization).toBe('Bearer xai-key-123456');
  });

  it("finishes with 'length' when maxTokens is reached (OpenAI and Anthropic max_tokens)", async () => {
    const { ai } = await serviceWith({ ...openaiEnv(), ...anthropicEnv() });
    const openai = await collect(ai, chat('gpt-4o-mini', 'Long please', { maxTokens: 5 }));
    expect(openai.deltas).toHaveLength(5);
    expect(openai.done).toMatchObject({ finishReason: 'length', usage: { outputTokens: 5 } });
    expect(emulators.openai.stats.lastRequest).toMatchObject({ max_completion_tokens: 5 });

    const claude = await collect(ai, chat(MODEL_IDS.claude, 'Long please', { maxTokens: 7 }));
    expect(claude.deltas).toHaveLength(7);
    expect(claude.done).toMatchObject({ finishReason: 'length', usage: { outputTokens: 7 } });
  });

  it('serves the demo model through the in-process emulator', async () => {
    const { ai } = await serviceWith({});
    const result = await collect(ai, chat(null, 'Show me a demo [words:30]'));
    expect(result.error).toBeNull();
    expect(result.deltas).toHaveLength(30);
    expect(result.done?.finishReason).toBe('stop');
    // The demo never reaches the configured emulators.
    expect(emulators.openai.stats.generations).toBe(0);
  });
});

describe('provider errors', () => {
  it.each([
    ['openai', 'gpt-4o-mini', 401, 'invalid_api_key'],
    ['openai', 'gpt-4o-mini', 429, 'rate_limit_exceeded'],
    ['openai', 'gpt-4o-mini', 500, 'server_error'],
    ['anthropic', MODEL_IDS.claude, 401, 'authentication_error'],
    ['anthropic', MODEL_IDS.claude, 429, 'rate_limit_error'],
    ['anthropic', MODEL_IDS.claude, 500, 'api_error'],
  ] as const)('%s %s [error:%i] → ProviderError with status, provider and code', async (provider, model, status, code) => {
    const { ai } = await serviceWith({ ...openaiEnv(), ...anthropicEnv() });
    const result = await collect(ai, chat(model, `fail [error:${status}]`));
    expect(result.deltas).toEqual([]);
    expect(result.error).toBeInstanceOf(ProviderError);
    expect(result.error).toMatchObject({ provider, status, code });
    expect((result.error as ProviderError).message).not.toMatch(/^\d{3} /);
  });

  it('does not retry a failed stream', async () => {
    const { ai } = await serviceWith(openaiEnv());
    emulators.openai.failNext(500);
    const result = await collect(ai, chat(null, 'Hello'));
    expect(result.error).toMatchObject({ status: 500 });
    expect(emulators.openai.stats.generations).toBe(1);
  });

  it.each([
    ['openai', 'gpt-4o-mini'],
    ['anthropic', MODEL_IDS.claude],
  ] as const)('%s: a connection dropped mid-stream → ProviderError 500 connection_error after the deltas', async (provider, model) => {
    const { ai } = await serviceWith({ ...openaiEnv(), ...anthropicEnv() });
    const result = await collect(ai, chat(model, 'drop it [disconnect:20]'));
    expect(result.deltas).toHaveLength(20);
    expect(result.done).toBeNull();
    expect(result.error).toBeInstanceOf(ProviderError);
    expect(result.error).toMatchObject({ provider, status: 500, code: 'connection_error' });
  });

  it.each([
    ['openai', 'gpt-4o-mini', 'server_error'],
    ['anthropic', MODEL_IDS.claude, 'overloaded_error'],
  ] as const)('%s: an error event mid-stream → ProviderError with the provider code', async (provider, model, code) => {
    const { ai } = await serviceWith({ ...openaiEnv(), ...anthropicEnv() });
    const result = await collect(ai, chat(model, 'oops [stream-error:10]'));
    expect(result.deltas).toHaveLength(10);
    expect(result.error).toMatchObject({ provider, status: 500, code });
  });
});

describe('abort', () => {
  it.each([
    ['openai', 'gpt-4o-mini', () => emulators.openai],
    ['anthropic', MODEL_IDS.claude, () => emulators.anthropic],
  ] as const)('%s: aborting stops the stream, cancels the request and throws the abort reason', async (_provider, model, emulator) => {
    const { ai } = await serviceWith({ ...openaiEnv(), ...anthropicEnv() });
    const controller = new AbortController();
    const result = await collect(ai, chat(model, 'slow [rate:50]', { signal: controller.signal }), (count) => {
      if (count === 3) controller.abort();
    });
    expect(result.deltas.length).toBeGreaterThanOrEqual(3);
    expect(result.deltas.length).toBeLessThan(10);
    expect(result.done).toBeNull();
    expect(result.error).toBeInstanceOf(DOMException);
    expect((result.error as DOMException).name).toBe('AbortError');
    await expect.poll(() => emulator().stats.clientAborts, { timeout: 2000 }).toBe(1);
  });

  it('an already aborted signal sends no request', async () => {
    const { ai } = await serviceWith(openaiEnv());
    const controller = new AbortController();
    controller.abort(new Error('user left'));
    const result = await collect(ai, chat(null, 'Hello', { signal: controller.signal }));
    expect((result.error as Error).message).toBe('user left');
    expect(emulators.openai.stats.generations).toBe(0);
  });

  it('breaking out of the loop cancels the provider request', async () => {
    const { ai } = await serviceWith(openaiEnv());
    let seen = 0;
    for await (const event of ai.stream(chat(null, 'slow [rate:50]'))) {
      if (event.type === 'delta' && ++seen === 2) break;
    }
    await expect.poll(() => emulators.openai.stats.clientAborts, { timeout: 2000 }).toBe(1);
  });
});

describe('demo emulator lifecycle', () => {
  it('starts on first use on 127.0.0.1 and stops on close', async () => {
    const demo = new DemoEmulator(0);
    const url = await demo.url();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(await demo.url()).toBe(url);
    const models = await fetch(`${url}/models`, { headers: { authorization: 'Bearer demo' } });
    expect(models.status).toBe(200);
    await demo.close();
    await expect(fetch(`${url}/models`, { headers: { authorization: 'Bearer demo' } })).rejects.toThrow();
    await expect(demo.url()).rejects.toThrow(/closed/);
  });
});
