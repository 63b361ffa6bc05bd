// Sharing a message as a read-only public link (spec part 2 §7 "POST /messages/share/", §8 'Message
// Shared'; the rest is ours, docs/decisions.md). Only the message's owner shares or revokes (anyone
// else gets a 404); the public read shows the presented fields only, and nothing once revoked.
import { ErrorIds } from '@pluma/common/errors';
import { SHARE_TOKEN_PATTERN, type MessageShare, type SharedMessage } from '@pluma/common/messages-api';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client';
import { messages, messageShares } from '../../db/schema';
import { AppError, notFound } from '../../platform/http/errors';
import type { Actor } from '../../platform/auth/actor';
import { citationsOf } from './avatar-citations';
import { requireMessage, stateAllows } from './policy';

export type MessageShareRow = typeof messageShares.$inferSelect;

/** 256 random bits in base64url: unguessable, and safe in a URL path. */
export function newShareToken(): string {
  return randomBytes(32).toString('base64url');
}

export function presentShare(row: MessageShareRow): MessageShare {
  return {
    share_id: row.shareId,
    message_id: row.messageId,
    token: row.token,
    path: `/shared/${row.token}`,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The message's active link, created if it has none. Sharing again returns the same link (one active
 * share per message, enforced by a partial unique index, so two concurrent clicks still make one link).
 */
export async function shareMessage({ actor, db, messageId }: { actor: Actor; db: Db; messageId: number }): Promise<{ share: MessageShareRow; created: boolean }> {
  const message = await requireMessage(db, actor, messageId);
  // A pending answer has nothing to show yet; the link would open on an empty page.
  if (!stateAllows('share', message)) {
    throw new AppError(409, ErrorIds.conflict, 'message_share_empty');
  }
  const [created] = await db
    .insert(messageShares)
    .values({ token: newShareToken(), messageId: message.messageId, userId: message.userId })
    .onConflictDoNothing({ target: messageShares.messageId, where: sql`${messageShares.revokedAt} is null` })
    .returning();
  if (created) return { share: created, created: true };
  const [existing] = await db
    .select()
    .from(messageShares)
    .where(and(eq(messageShares.messageId, message.messageId), eq(messageShares.userId, message.userId), isNull(messageShares.revokedAt)))
    .limit(1);
  // Revoked between the insert and this read: the caller may simply share again.
  if (!existing) throw new AppError(409, ErrorIds.conflict, 'message_busy');
  return { share: existing, created: false };
}

/** Revokes the actor's active share; another user's, an unknown or an already revoked one is a 404. */
export async function revokeShare({ actor, db, shareId }: { actor: Actor; db: Db; shareId: number }): Promise<void> {
  const [row] = await db
    .update(messageShares)
    .set({ revokedAt: new Date() })
    .where(and(eq(messageShares.shareId, shareId), eq(messageShares.userId, actor.user.userId), isNull(messageShares.revokedAt)))
    .returning({ shareId: messageShares.shareId });
  if (!row) throw notFound();
}

/**
 * The public read: content, role, model and date of the shared message, and an avatar answer's cited
 * passages as its owner sees them (a deleted file's are gone: message_citations cascades); 404 when unknown
 * or revoked.
 */
export async function readSharedMessage({ db, token }: { db: Db; token: string }): Promise<SharedMessage> {
  // A malformed token cannot exist: no query for it.
  if (!SHARE_TOKEN_PATTERN.test(token)) throw notFound();
  const [row] = await db
    .select({ messageId: messages.messageId, avatarId: messages.avatarId, role: messages.role, content: messages.content, model: messages.model, createdAt: messages.createdAt })
    .from(messageShares)
    .innerJoin(messages, and(eq(messages.messageId, messageShares.messageId), eq(messages.userId, messageShares.userId)))
    .where(and(eq(messageShares.token, token), isNull(messageShares.revokedAt)))
    .limit(1);
  if (!row || row.content === null) throw notFound();
  const citations = (await citationsOf(db, [row])).get(row.messageId) ?? [];
  return {
    role: row.role === 'user' ? 'user' : 'assistant',
    content: row.content,
    model: row.model,
    createdAt: row.createdAt.toISOString(),
    citations,
  };
}
