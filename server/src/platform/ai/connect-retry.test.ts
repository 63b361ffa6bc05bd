// A request that never connected is sent once more; nothing else is retried. The provider is reached
// through a TCP relay that resets its first connections before any answer, the way a kept-alive socket
// the provider already closed fails (seen under load by bench/chat-first-token.mjs).
import { startAiEmulators, type RunningAiEmulators } from '@pluma/emulators/index';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import { loadEnv } from '../../env';
import { createTestDatabase } from '../../test/test-db';
import { MODEL_IDS } from './models';
import { DemoEmulator } from '../../demo/ai';
import { createAiService } from './service';
import { ProviderError, type AiService, type ChatStreamRequest } from './types';

/** Resets the first `resets` connections at once; relays later ones to `targetPort`. */
async function startRelay(targetPort: number) {
  const relay = { resets: 0, connections: 0, server: null as Server | null, port: 0 };
  const server = createServer((socket) => {
    relay.connections++;
    if (relay.connections <= relay.resets) {
      socket.resetAndDestroy();
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    socket.pipe(upstream).pipe(socket);
    const close = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', close);
    upstream.on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.server = server;
  relay.port = (server.address() as { port: number }).port;
  return relay;
}

describe('a provider request that fails to connect', () => {
  let emulators: RunningAiEmulators;
  let database: Database;
  let dataDir: string;
  const services: { close(): Promise<void> }[] = [];
  const relays: Server[] = [];

  beforeAll(async () => {
    emulators = await startAiEmulators();
    database = await createTestDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'pluma-ai-retry-'));
  });
  afterEach(() => {
    emulators.openai.resetStats();
    emulators.anthropic.resetStats();
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.close()));
    for (const relay of relays) relay.close();
    await emulators.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** An AI service whose OpenAI and Anthropic base URLs go through a fresh relay that resets `resets` connections. */
  async function serviceBehindRelay(provider: 'openai' | 'anthropic', resets: number): Promise<{ ai: AiService; relay: Awaited<ReturnType<typeof startRelay>> }> {
    const emulator = provider === 'openai' ? emulators.openai : emulators.anthropic;
    const relay = await startRelay(emulator.port);
    relay.resets = resets;
    relays.push(relay.server as Server);
    const baseUrl = new URL(emulator.url);
    baseUrl.port = String(relay.port);
    const env =
      provider === 'openai'
        ? { OPENAI_API_KEY: 'sk-relay-123456', OPENAI_BASE_URL: baseUrl.toString() }
        : { ANTHROPIC_API_KEY: 'sk-ant-relay-123456', ANTHROPIC_BASE_URL: baseUrl.toString().replace(/\/v1\/?$/, '') };
    const ctx: AppContext = {
      env: loadEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, APP_SECRET: 'test-secret-test-secret-test-secret-0123', LOG_LEVEL: 'silent', DEMO_AI: 'false', ...env }),
      database,
      db: database.db,
      services: {},
    };
    const ai = await createAiService(ctx, new DemoEmulator(0));
    services.push(ai);
    return { ai, relay };
  }

  const request = (model: string, prompt: string): ChatStreamRequest => ({ model, messages: [{ role: 'user', content: prompt }] });

  async function run(ai: AiService, req: ChatStreamRequest) {
    const deltas: string[] = [];
    let finishReason: string | null = null;
    let error: unknown = null;
    try {
      for await (const event of ai.stream(req)) {
        if (event.type === 'delta') deltas.push(event.text);
        else finishReason = event.finishReason;
      }
    } catch (err) {
      error = err;
    }
    return { deltas, finishReason, error };
  }

  const models = [
    ['openai', 'gpt-4o-mini'],
    ['anthropic', MODEL_IDS.claude],
  ] as const;

  it.each(models)('%s: one reset connection → sent once more, and the answer streams whole', async (provider, model) => {
    const { ai, relay } = await serviceBehindRelay(provider, 1);
    const result = await run(ai, request(model, '[words:12] Hello'));
    expect(result.error).toBeNull();
    expect(result.deltas.join('').split(/\s+/).filter(Boolean)).toHaveLength(12);
    expect(result.finishReason).toBe('stop');
    expect(relay.connections).toBe(2);
    const emulator = provider === 'openai' ? emulators.openai : emulators.anthropic;
    expect(emulator.stats.generations).toBe(1);
  });

  it.each(models)('%s: a provider that stays unreachable → ProviderError connection_error after two tries', async (provider, model) => {
    const { ai, relay } = await serviceBehindRelay(provider, 10);
    const result = await run(ai, request(model, 'Hello'));
    expect(result.deltas).toEqual([]);
    expect(result.error).toBeInstanceOf(ProviderError);
    expect(result.error).toMatchObject({ provider, status: 500, code: 'connection_error' });
    expect(relay.connections).toBe(2);
  });

  it.each(models)('%s: an error status is not sent again', async (provider, model) => {
    const { ai, relay } = await serviceBehindRelay(provider, 0);
    const result = await run(ai, request(model, 'fail [error:503]'));
    expect(result.error).toMatchObject({ provider, status: 503 });
    const emulator = provider === 'openai' ? emulators.openai : emulators.anthropic;
    expect(emulator.stats.generations).toBe(1);
    expect(relay.connections).toBe(1);
  });
});
