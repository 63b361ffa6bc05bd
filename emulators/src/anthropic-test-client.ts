// Test set-up shared by the Anthropic emulator's tests: one emulator on a free port for the file, and the
// official SDK pointed at it (no retries, so a refusal shows at once). The fields are set in beforeAll.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll } from 'vitest';
import { startAnthropicEmulator } from './anthropic';
import type { RunningEmulator } from './http-kit';

export function useAnthropicEmulator(): { emulator: RunningEmulator; client: Anthropic } {
  const live = {} as { emulator: RunningEmulator; client: Anthropic };
  beforeAll(async () => {
    live.emulator = await startAnthropicEmulator({ port: 0, host: '127.0.0.1' });
    live.client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: live.emulator.url, maxRetries: 0 });
  });
  afterAll(() => live.emulator.close());
  return live;
}
