// The set-up the generation tests share (Super Fetch, outputs, ideas; avatar chat through useChatApp): the
// OpenAI wire-protocol emulator, the real app configured to call it with an operator key, optionally
// listening locally for sockets, a request helper and the user's own AI key (avatars need one).
// Registers its own beforeAll/afterAll: call it at the top of a describe block, before the block's own hooks.
import { startOpenAiEmulator, type RunningEmulator } from '@pluma/emulators/index';
import { afterAll, beforeAll, expect } from 'vitest';
import { connectSocket, listenLocally, type ClientSocket } from '../platform/realtime/socket-test-helpers';
import type { BuiltUser } from './factories';
import { createTestApp, type TestApp } from './test-app';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A key of the form the AI-key check accepts (PUT /api/users/ai-key), answered by the emulator. */
export const TEST_USER_AI_KEY = 'sk-proj-ai-tests-0123456789';

export interface AiTestApp {
  emulator: RunningEmulator;
  t: TestApp;
  /** The local address (with `listen`), for sockets. */
  url: string;
  /** app.inject as `who` (null: anonymous). */
  call(who: BuiltUser | null, method: Method, path: string, payload?: object): ReturnType<TestApp['app']['inject']>;
  /** A socket of `who`'s (with `listen`), closed after the block. */
  socketOf(who: BuiltUser): Promise<ClientSocket>;
  /** Saves `who`'s own AI key through the API. */
  withAiKey(who: BuiltUser, key?: string): Promise<void>;
}

/** Saves `who`'s own AI key through PUT /api/users/ai-key (also for the chat tests' app). */
export async function saveAiKey(t: TestApp, who: BuiltUser, key: string = TEST_USER_AI_KEY): Promise<void> {
  const res = await t.app.inject({ method: 'PUT', url: '/api/users/ai-key', headers: who.auth, payload: { api_key: key } });
  expect(res.statusCode, res.body).toBe(200);
}

export function useAiTestApp(options: { listen?: boolean } = {}): AiTestApp {
  const sockets: ClientSocket[] = [];
  const ai = {
    call: (who, method, path, payload) => ai.t.app.inject({ method, url: path, headers: who?.auth ?? {}, ...(payload ? { payload } : {}) }),
    async socketOf(who) {
      const socket = await connectSocket(ai.url, { token: who.token });
      sockets.push(socket);
      return socket;
    },
    withAiKey: (who, key) => saveAiKey(ai.t, who, key),
  } as AiTestApp;

  beforeAll(async () => {
    ai.emulator = await startOpenAiEmulator({ port: 0, host: '127.0.0.1' });
    ai.t = await createTestApp({ OPENAI_API_KEY: 'sk-operator-key-000000000000', OPENAI_BASE_URL: ai.emulator.url });
    if (options.listen) ai.url = await listenLocally(ai.t.app);
  }, 60_000);
  afterAll(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    await ai.t?.close();
    await ai.emulator?.close();
  });
  return ai;
}
