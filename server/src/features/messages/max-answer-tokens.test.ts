// AI_MAX_ANSWER_TOKENS: the answer length asked of the model, per deployment (default 2048). Checked on
// the wire (the emulator records the request) and in the saved answer (cut off → finish_reason 'length').
import { startAiEmulators, type RunningAiEmulators } from '@pluma/emulators/index';
import { countWords } from '@pluma/common/rules/token-estimate';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { messages } from '../../db/schema';
import { loadEnv } from '../../env';
import { buildUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { settleGenerations } from '../../platform/ai/generation-registry';

describe('AI_MAX_ANSWER_TOKENS', () => {
  let ai: RunningAiEmulators | undefined;
  let t: TestApp | undefined;

  afterEach(async () => {
    await t?.close();
    await ai?.close();
    t = undefined;
    ai = undefined;
  });

  /** Sends `content` in a new conversation (no socket: stream false) and returns the finished answer row. */
  async function answerTo(env: Record<string, string>, content: string) {
    ai = await startAiEmulators();
    t = await createTestApp({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: ai.openai.url, ...env });
    const owner = await buildUser(t.ctx, { access: true });
    const created = await t.app.inject({ method: 'POST', url: '/api/conversations', headers: owner.auth, payload: { name: 'Limits' } });
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: owner.auth,
      payload: { content, conversation_id: created.json().conversation_id, stream: false },
    });
    expect(sent.statusCode).toBe(201);
    await settleGenerations(t.ctx);
    const [row] = await t.ctx.db.select().from(messages).where(eq(messages.messageId, sent.json().assistant_message.message_id));
    return row;
  }

  it('asks for 2048 tokens by default', async () => {
    const row = await answerTo({}, '[words:50] A short answer');
    expect(ai?.openai.stats.lastRequest).toMatchObject({ max_completion_tokens: 2048 });
    expect(row).toMatchObject({ status: 'done', finishReason: 'stop' });
    expect(countWords(row.content ?? '')).toBe(50);
  });

  it('asks for the configured length and saves a longer answer cut off, to be continued', async () => {
    const row = await answerTo({ AI_MAX_ANSWER_TOKENS: '30' }, '[words:50] A longer answer');
    expect(ai?.openai.stats.lastRequest).toMatchObject({ max_completion_tokens: 30 });
    expect(row).toMatchObject({ status: 'done', finishReason: 'length', wordsCharged: 30 });
    expect(countWords(row.content ?? '')).toBe(30);
  });

  it('refuses a value that is not a positive whole number', () => {
    for (const value of ['0', '-5', '1.5', 'many']) {
      expect(() => loadEnv({ DATA_DIR: '/tmp/unused', APP_SECRET: 'x'.repeat(32), AI_MAX_ANSWER_TOKENS: value })).toThrow(/AI_MAX_ANSWER_TOKENS/);
    }
  });
});
