// The offline demo model: the OpenAI emulator in this process, reached through the real `openai` SDK.
// Started on first use (a deployment with keys never needs it) and closed with the app. Its answers follow the
// request's language and counts (answer.ts demoAnswer). With the demo on, users' own keys are answered here
// too (platform/ai/user-key-client.ts): the key check, refine, fine-tuning and trained models.
import { startOpenAiEmulator } from '@pluma/emulators/openai';
import type { RunningEmulator } from '@pluma/emulators/http-kit';
import type { DemoModel } from '../platform/ai/types';
import { demoAnswer } from './answer';

/** A human-like pace (40 tokens/s) so the demo shows streaming; none in tests, which should not wait. */
export const DEMO_TOKEN_DELAY_MS = 25;

export class DemoEmulator implements DemoModel {
  private running: Promise<RunningEmulator> | null = null;
  private closed = false;

  constructor(private readonly tokenDelayMs: number) {}

  /** Base URL for the SDK; starts the emulator on 127.0.0.1 on a free port the first time. */
  async url(): Promise<string> {
    if (this.closed) throw new Error('The demo AI emulator is closed.');
    this.running ??= startOpenAiEmulator({ host: '127.0.0.1', port: 0, tokenDelayMs: this.tokenDelayMs, compose: demoAnswer }).catch((error: unknown) => {
      this.running = null;
      throw error;
    });
    return (await this.running).url;
  }

  async close(): Promise<void> {
    this.closed = true;
    const running = this.running;
    this.running = null;
    if (running) await (await running.catch(() => null))?.close();
  }
}
