// Discount codes (spec part 1 §3 Discount, §7 GET /discounts/code/{code}, §8 "Discount error"; the rule of
// when a code can no longer be used is ours: docs/decisions.md "Discount codes"). Framework-free:
// verbNoun({ actor, db, ... }). Staff admins manage codes (policy.ts); buyers look one up for a product
// (redemption.ts holds the rules of using one, which checkout and the purchase lifecycle apply).
import {
  DiscountErrorIds,
  discountAmountIssue,
  type CreateDiscountRequest,
  type ListDiscountsQuery,
  type UpdateDiscountRequest,
} from '@pluma/common/discounts';
import { count, desc, eq, ilike } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { discounts } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError, badRequest, notFound } from '../../platform/http/errors';
import { escapeLikePattern } from '../../platform/http/like-pattern';
import { requireProduct, type ProductRow } from '../products';
import { discountAdminRules } from './policy';
import { requireUsableDiscount, type DiscountRow } from './redemption';
import { discountAuditFields } from './audit-fields';

type Changes = Record<string, { from: unknown; to: unknown }>;

const codeExists = () => new AppError(409, DiscountErrorIds.codeExists, 'discount_code_exists', {}, { details: { code: 'discount_code_exists' } });



/** GET /discounts/code/{code}?product_id=: the product must be one the actor may buy here (else 404). */
export async function lookupDiscount({ actor, db, code, productId }: { actor: Actor; db: Db; code: string; productId: number }): Promise<{ discount: DiscountRow; product: ProductRow }> {
  const product = await requireProduct(db, actor, productId, 'buy');
  return { discount: await requireUsableDiscount({ db, code, product }), product };
}

// ---- Staff (GET, POST, PUT /discounts/admin, DELETE /discounts/admin/{id}).

/** Newest first; `query` matches part of the code, any case. */
export async function listDiscounts({ actor, db, query: q }: { actor: Actor; db: Db; query: ListDiscountsQuery }): Promise<{ rows: DiscountRow[]; total: number }> {
  discountAdminRules.authorize(actor, 'list', null);
  const filter = q.query ? ilike(discounts.code, `%${escapeLikePattern(q.query)}%`) : undefined;
  const rows = await db
    .select()
    .from(discounts)
    .where(filter)
    .orderBy(desc(discounts.createdAt), desc(discounts.discountId))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const [{ total }] = await db.select({ total: count() }).from(discounts).where(filter);
  return { rows, total };
}

/** The request's fields as columns; fields left out stay out. */
function columnsOf(input: Omit<UpdateDiscountRequest, 'discount_id'>): Partial<typeof discounts.$inferInsert> {
  const columns: Partial<typeof discounts.$inferInsert> = {
    code: input.code,
    isPercent: input.is_percent,
    amount: input.amount,
    firstInvoiceOnly: input.first_invoice_only,
    productId: input.product_id,
    active: input.active,
    expiresAt: input.expires_at === undefined ? undefined : input.expires_at === null ? null : new Date(input.expires_at),
    maxRedemptions: input.max_redemptions,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

/** A PostgreSQL unique violation (23505) in `err` or its causes (drizzle wraps driver errors). */
function isUniqueViolation(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** A new code; 409 when the code exists already in any case (also when two requests race for it). */
export async function createDiscount({ actor, db, input }: { actor: Actor; db: Db; input: CreateDiscountRequest }): Promise<DiscountRow> {
  discountAdminRules.authorize(actor, 'manage', null);
  const [row] = await db
    .insert(discounts)
    .values({ ...columnsOf(input), code: input.code, isPercent: input.is_percent, amount: input.amount })
    .onConflictDoNothing()
    .returning();
  if (!row) throw codeExists();
  return row;
}

/** Changes a code (404 if there is none); a percentage stays at most 100; returns what changed, for the audit. */
export async function updateDiscount({ actor, db, input }: { actor: Actor; db: Db; input: UpdateDiscountRequest }): Promise<{ row: DiscountRow; changes: Changes }> {
  discountAdminRules.authorize(actor, 'manage', null);
  const { discount_id: discountId, ...fields } = input;
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx.select().from(discounts).where(eq(discounts.discountId, discountId)).for('update');
      if (!before) throw notFound();
      const columns = columnsOf(fields);
      const merged = { ...before, ...columns };
      const issue = discountAmountIssue({ is_percent: merged.isPercent, amount: merged.amount });
      if (issue) throw badRequest(issue, { amount: issue });
      const [row] = await tx
        .update(discounts)
        .set({ ...columns, updatedAt: new Date() })
        .where(eq(discounts.discountId, discountId))
        .returning();
      const was: Record<string, unknown> = discountAuditFields(before);
      const now: Record<string, unknown> = discountAuditFields(row);
      const changes = Object.fromEntries(
        Object.keys(now)
          .filter((key) => JSON.stringify(was[key]) !== JSON.stringify(now[key]))
          .map((key) => [key, { from: was[key], to: now[key] }]),
      );
      return { row, changes };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw codeExists();
    throw err;
  }
}

/** Removes a code (404 if there is none). Purchases keep the code they used as text. */
export async function deleteDiscount({ actor, db, discountId }: { actor: Actor; db: Db; discountId: number }): Promise<DiscountRow> {
  discountAdminRules.authorize(actor, 'manage', null);
  const [row] = await db.delete(discounts).where(eq(discounts.discountId, discountId)).returning();
  if (!row) throw notFound();
  return row;
}
