// The user's own AI-provider key (spec part 1 §1: avatars need it and training is billed to it; §2 Settings):
// sealed with platform/crypto/secret-box like the organizations' keys, shown only masked to its last 4
// characters (present.ts presentAiKey), checked with one real call through the provider's official SDK before
// it is saved (a refused key is not kept), testable, removable. Avatars and
// trainings read it with requireUserAiKey() (ai-keys.ts), which refuses with 'ai_key_required' (the web
// prompts to add it in Settings).
import type { AiKeyTestResult } from '@pluma/common/avatars';
import { MASKED_VISIBLE_CHARS } from '@pluma/common/constants';
import { eq } from 'drizzle-orm';
import { ErrorIds } from '@pluma/common/errors';
import OpenAI from 'openai';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { userAiKeys } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { userKeyClient } from '../../platform/ai/user-key-client';
import { encryptSecret } from '../../platform/crypto/secret-box';
import { AppError, badRequest } from '../../platform/http/errors';
import { aiKeyRowOf, requireUserAiKey, type AiKeyRow } from './ai-keys';

const TEST_TIMEOUT_MS = 10_000;

/** The actor's own key (its row: the route shows it masked), or null. */
export async function getAiKey({ actor, db }: { actor: Actor; db: Db }): Promise<AiKeyRow | null> {
  return aiKeyRowOf(db, actor.user.userId);
}

/** Whether the actor has saved a key (no decryption): the gate of creating avatars and trainings. */
export async function hasUserAiKey({ actor, db }: { actor: Actor; db: Db }): Promise<boolean> {
  return (await aiKeyRowOf(db, actor.user.userId)) !== null;
}

/** What the provider says of a key it refused (401/403): 400 on the field. Unreachable or failing: 502. Either way nothing is saved. */
function refusedKeyError(result: AiKeyTestResult): AppError {
  if (result.status === 401 || result.status === 403) {
    return badRequest('ai_key_refused', { api_key: 'ai_key_refused' }, { status: String(result.status) });
  }
  return new AppError(502, ErrorIds.provider, 'ai_key_unchecked', {}, { provider: result.provider, code: result.code ?? 'unreachable' });
}

/**
 * PUT /users/ai-key: the key is checked first with one real call (the model list, as testAiKey) and saved only
 * when the provider accepts it.
 */
export async function saveAiKey({ ctx, actor, apiKey }: { ctx: AppContext; actor: Actor; apiKey: string }): Promise<AiKeyRow> {
  const check = await testAiKey({ ctx, actor, typed: apiKey });
  if (!check.ok) throw refusedKeyError(check);
  const sealed = encryptSecret(ctx.env.APP_SECRET, apiKey);
  const last4 = apiKey.slice(-MASKED_VISIBLE_CHARS);
  const [row] = await ctx.db
    .insert(userAiKeys)
    .values({ userId: actor.user.userId, keySealed: sealed, last4 })
    .onConflictDoUpdate({ target: userAiKeys.userId, set: { keySealed: sealed, last4, provider: 'openai', updatedAt: new Date() } })
    .returning();
  return row;
}

export async function removeAiKey({ actor, db }: { actor: Actor; db: Db }): Promise<void> {
  await db.delete(userAiKeys).where(eq(userAiKeys.userId, actor.user.userId));
}

/**
 * POST /users/ai-key/test: one real call through the official SDK (the model list) with the typed key, or
 * the saved one. A refused key is an answer (ok false with the provider's status and code), not our error.
 */
export async function testAiKey({ ctx, actor, typed }: { ctx: AppContext; actor: Actor; typed?: string }): Promise<AiKeyTestResult> {
  const apiKey = typed ?? (await requireUserAiKey(ctx, actor.user.userId));
  // The user-key client: OPENAI_BASE_URL, or the demo model's emulator when the offline demo is on.
  const client = userKeyClient(ctx, apiKey, { maxRetries: 0, timeout: TEST_TIMEOUT_MS });
  try {
    await client.models.list();
    return { ok: true, provider: 'openai', status: 200, code: null, message: null };
  } catch (err) {
    if (err instanceof OpenAI.APIError && err.status !== undefined) {
      return { ok: false, provider: 'openai', status: err.status, code: String(err.code ?? err.type ?? 'error'), message: err.message };
    }
    return { ok: false, provider: 'openai', status: null, code: 'unreachable', message: err instanceof Error ? err.message : null };
  }
}
