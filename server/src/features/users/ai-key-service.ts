// The user's own AI-provider key (spec part 1 §1: avatars need it and training is billed to it; §2 Settings):
// sealed with platform/crypto/secret-box like the organizations' keys, shown only masked to its last 4
// characters, testable through the provider's official SDK, removable. Avatars and trainings read it with
// requireUserAiKey(), which refuses with 'ai_key_required' (the web prompts to add it in Settings).
import { SECRET_MASK } from '@pluma/common/appconfig';
import type { AiKeyStatus, AiKeyTestResult } from '@pluma/common/avatars';
import { MASKED_VISIBLE_CHARS } from '@pluma/common/constants';
import { eq } from 'drizzle-orm';
import OpenAI from 'openai';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { userAiKeys } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { decryptSecret, encryptSecret } from '../../platform/crypto/secret-box';
import { AppError } from '../../platform/http/errors';

const TEST_TIMEOUT_MS = 10_000;

type KeyRow = typeof userAiKeys.$inferSelect;

/** 409, not 412: a missing key is not a missing subscription, so the web prompts for the key instead of /sorry. */
export const aiKeyRequired = () => new AppError(409, 'ai_key_required', 'ai_key_required');

function presentKey(row: KeyRow | undefined): AiKeyStatus {
  if (!row) return { configured: false, provider: null, masked: null, updatedAt: null };
  return { configured: true, provider: 'openai', masked: SECRET_MASK + row.last4, updatedAt: row.updatedAt.toISOString() };
}

async function keyRowOf(db: Db, userId: number): Promise<KeyRow | undefined> {
  const [row] = await db.select().from(userAiKeys).where(eq(userAiKeys.userId, userId)).limit(1);
  return row;
}

export async function getAiKey({ actor, db }: { actor: Actor; db: Db }): Promise<AiKeyStatus> {
  return presentKey(await keyRowOf(db, actor.user.userId));
}

export async function saveAiKey({ ctx, actor, apiKey }: { ctx: AppContext; actor: Actor; apiKey: string }): Promise<AiKeyStatus> {
  const sealed = encryptSecret(ctx.env.APP_SECRET, apiKey);
  const last4 = apiKey.slice(-MASKED_VISIBLE_CHARS);
  const [row] = await ctx.db
    .insert(userAiKeys)
    .values({ userId: actor.user.userId, keySealed: sealed, last4 })
    .onConflictDoUpdate({ target: userAiKeys.userId, set: { keySealed: sealed, last4, provider: 'openai', updatedAt: new Date() } })
    .returning();
  return presentKey(row);
}

export async function removeAiKey({ actor, db }: { actor: Actor; db: Db }): Promise<AiKeyStatus> {
  await db.delete(userAiKeys).where(eq(userAiKeys.userId, actor.user.userId));
  return presentKey(undefined);
}

/** The user's key in the clear, for calls made on their behalf (server side only), else 'ai_key_required'. */
export async function requireUserAiKey(ctx: AppContext, userId: number): Promise<string> {
  const row = await keyRowOf(ctx.db, userId);
  if (!row) throw aiKeyRequired();
  return decryptSecret(ctx.env.APP_SECRET, row.keySealed);
}

/** Whether the user has saved a key (no decryption). */
export async function hasUserAiKey(db: Db, userId: number): Promise<boolean> {
  return (await keyRowOf(db, userId)) !== undefined;
}

/**
 * POST /users/ai-key/test: one real call through the official SDK (the model list) with the typed key, or
 * the saved one. A refused key is an answer (ok false with the provider's status and code), not our error.
 */
export async function testAiKey({ ctx, actor, typed }: { ctx: AppContext; actor: Actor; typed?: string }): Promise<AiKeyTestResult> {
  const apiKey = typed ?? (await requireUserAiKey(ctx, actor.user.userId));
  const client = new OpenAI({ apiKey, baseURL: ctx.env.OPENAI_BASE_URL, maxRetries: 0, timeout: TEST_TIMEOUT_MS });
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
