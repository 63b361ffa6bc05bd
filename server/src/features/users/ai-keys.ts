// The stored AI-provider key of a user, read for calls made on their behalf: other features' services and
// jobs (avatars, trainings, outputs, chat with an avatar), which may run with no actor (the training job).
// Not an operation of an actor: route files never import this module (ai-key-service.ts has the actor's).
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { userAiKeys } from '../../db/schema';
import { decryptSecret } from '../../platform/crypto/secret-box';
import { AppError } from '../../platform/http/errors';

export type AiKeyRow = typeof userAiKeys.$inferSelect;

/** 409, not 412: a missing key is not a missing subscription, so the web prompts for the key instead of /sorry. */
export const aiKeyRequired = () => new AppError(409, 'ai_key_required', 'ai_key_required');

export async function aiKeyRowOf(db: Db, userId: number): Promise<AiKeyRow | null> {
  const [row] = await db.select().from(userAiKeys).where(eq(userAiKeys.userId, userId)).limit(1);
  return row ?? null;
}

/** The user's key in the clear, for calls made on their behalf (server side only), else 'ai_key_required'. */
export async function requireUserAiKey(ctx: AppContext, userId: number): Promise<string> {
  const row = await aiKeyRowOf(ctx.db, userId);
  if (!row) throw aiKeyRequired();
  return decryptSecret(ctx.env.APP_SECRET, row.keySealed);
}
