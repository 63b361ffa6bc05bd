// AI-provider, Stripe, PayPal and SMS (Twilio) emulators for tests, e2e, benchmarks and the offline demo (DESIGN.md §1.1).
import { startAnthropicEmulator } from './anthropic';
import type { EmulatorOptions, RunningEmulator } from './http-kit';
import { startOpenAiEmulator } from './openai';

export { startAnthropicEmulator } from './anthropic';
export { startOpenAiEmulator } from './openai';
export type { EmulatorOptions, EmulatorStats, RunningEmulator } from './http-kit';
export { startStripeEmulator } from './stripe';
export type { RunningStripeEmulator, StripeEmulatorOptions } from './stripe';
export { emulatorHttpsAgent, startPayPalEmulator } from './paypal';
export type { PayPalEmulatorOptions, PayPalSdkOptions, RunningPayPalEmulator } from './paypal';
export { startSmsEmulator } from './sms';
export type { EmulatedSms, RunningSmsEmulator, SmsEmulatorOptions } from './sms';

export interface RunningAiEmulators {
  openai: RunningEmulator;
  anthropic: RunningEmulator;
  close(): Promise<void>;
}

/** Starts the OpenAI and Anthropic emulators, each on its own free port (options apply to both). */
export async function startAiEmulators(options: Omit<EmulatorOptions, 'port' | 'models'> = {}): Promise<RunningAiEmulators> {
  const openai = await startOpenAiEmulator({ ...options, port: 0 });
  try {
    const anthropic = await startAnthropicEmulator({ ...options, port: 0 });
    return {
      openai,
      anthropic,
      close: async () => {
        await Promise.all([openai.close(), anthropic.close()]);
      },
    };
  } catch (error) {
    await openai.close();
    throw error;
  }
}
