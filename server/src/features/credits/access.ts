// Premium gate of generation (spec part 1 §6: regular users need has_access for chat and generation;
// part 2 §6: premium features are signalled by status 412, and the web then goes to /sorry).
// has_access = staff OR a valid purchase (spec part 1 §1, §4; the same rule as users/access.ts). The gate
// runs before every answer, so it reads nothing it already has: the staff role and the word balance come
// with the actor, and the purchases are read with the conversation (messages/service.ts).
import { ErrorIds } from '@pluma/common/errors';
import type { MessageKey } from '@pluma/common/messages';
import { ACCESS_PURCHASE_STATUSES, purchaseGivesAccess, type PurchaseForExpiry } from '@pluma/common/rules/purchase-expiry';
import { and, eq, inArray, isNotNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { purchases } from '../../db/schema';
import type { Db } from '../../db/client';
import type { Actor } from '../../platform/auth/actor';
import { AppError } from '../../platform/http/errors';

export const premiumRequired = (messageKey: MessageKey = 'premium_required') => new AppError(412, ErrorIds.premium, messageKey);

/** The purchase fields the expiry rule reads. */
export const purchaseTermsColumns = {
  status: purchases.status,
  createdAt: purchases.createdAt,
  updatedAt: purchases.updatedAt,
  expirationDays: purchases.expirationDays,
  subscriptionInterval: purchases.subscriptionInterval,
  subscriptionPeriod: purchases.subscriptionPeriod,
  freeTrialLength: purchases.freeTrialLength,
  cancelReason: purchases.cancelReason,
};

/**
 * Join condition for the purchases that may give the user in `userId` access (index purchases_user_created_idx):
 * the SQL form of common's mayGiveAccess — ACCESS_PURCHASE_STATUSES (active, completed, cancelled), a
 * cancelled one only with a reason (it keeps access until its next invoice date) — whose expiry
 * purchaseGivesAccess then decides. Not checkout's "valid purchases" (VALID_PURCHASE_STATUSES).
 */
export function candidatePurchasesOf(userId: AnyPgColumn | SQL): SQL | undefined {
  return and(
    eq(purchases.userId, userId),
    inArray(purchases.status, [...ACCESS_PURCHASE_STATUSES]),
    or(ne(purchases.status, 'cancelled'), isNotNull(purchases.cancelReason)),
  );
}

/**
 * The 412 gate of every premium feature (spec part 2 §6): staff, or a purchase that gives access now
 * (the same candidates and rule as GET /api/users' has_access); else 'premium_required'. Declared on a
 * route with `signedIn(app, schema, { gates: [accessGate(app)] })`. Chat reads the purchases with its conversation
 * instead (messages/policy.ts) and applies the same rule in assertCanGenerate below.
 */
export async function requireAccess(db: Db, actor: Pick<Actor, 'staffRole' | 'user'>, now: Date = new Date()): Promise<void> {
  if (actor.staffRole !== null) return;
  const candidates = await db.select(purchaseTermsColumns).from(purchases).where(candidatePurchasesOf(sql`${actor.user.userId}::int`));
  if (!candidates.some((purchase) => purchaseGivesAccess(purchase, now))) throw premiumRequired();
}

export type GenerationActor = Pick<Actor, 'staffRole'> & { user: Pick<Actor['user'], 'availableWords'> };

/**
 * Refuses generation (412) without has_access or without words left. `candidates` are the user's
 * purchases with a valid status; staff need none. The words check reads the cached actor and only spares
 * a write: the exact check is the word hold taken before generating (credits/holds.ts).
 */
export function assertCanGenerate(actor: GenerationActor, candidates: readonly PurchaseForExpiry[], now: Date = new Date()): void {
  const staff = actor.staffRole !== null;
  if (!staff && !candidates.some((purchase) => purchaseGivesAccess(purchase, now))) throw premiumRequired();
  // Staff words read as unlimited (GET /api/users), so staff are never out of words.
  if (!staff && actor.user.availableWords <= 0) throw premiumRequired('words_exhausted');
}
