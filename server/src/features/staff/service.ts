// Back-office staff (spec part 1 §2 "Staff page", §7 /staff): list, add, change role, remove. Admins only
// (docs/decisions.md "Staff rights"); there is always at least one admin: the last one can be neither
// demoted nor removed (409 'last_admin_staff').
import { STAFF_PAGE_SIZE, staffListQuery, type AddStaffRequest, type StaffListQuery } from '@pluma/common/staff';
import type { StaffRole } from '@pluma/common/constants';
import { ErrorIds } from '@pluma/common/errors';
import { and, asc, count, eq, ilike } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { staff, users } from '../../db/schema';
import { invalidateUser } from '../../platform/auth/invalidation';
import { AppError } from '../../platform/http/errors';
import { escapeLikePattern } from '../../platform/http/like-pattern';
import type { Log } from '../../platform/log';
import { findUserByEmail, sendResetPasswordLink } from '../users';
import type { Actor } from '../../platform/auth/actor';
import { staffPolicy } from './policy';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const staffColumns = {
  staffId: staff.staffId,
  role: staff.role,
  createdAt: staff.createdAt,
  userId: users.userId,
  name: users.name,
  lastName: users.lastName,
  email: users.email,
};
export type StaffRow = { staffId: number; role: string; createdAt: Date; userId: number; name: string; lastName: string; email: string };

/** GET /staff/admin/all: 50 a page, oldest first, optionally by part of the email. */
export async function listStaff({ actor, db, query }: { actor: Actor; db: Db; query: StaffListQuery }): Promise<{ rows: StaffRow[]; total: number }> {
  const q = staffListQuery.parse(query);
  const filter = and(staffPolicy.visibleTo(actor), q.query ? ilike(users.email, `%${escapeLikePattern(q.query)}%`) : undefined);
  const rows = await db
    .select(staffColumns)
    .from(staff)
    .innerJoin(users, eq(users.userId, staff.userId))
    .where(filter)
    .orderBy(asc(staff.staffId))
    .limit(STAFF_PAGE_SIZE)
    .offset((q.page - 1) * STAFF_PAGE_SIZE);
  const [{ total }] = await db.select({ total: count() }).from(staff).innerJoin(users, eq(users.userId, staff.userId)).where(filter);
  return { rows, total };
}

async function readStaff(db: Db | Tx, staffId: number): Promise<StaffRow | null> {
  const [row] = await db.select(staffColumns).from(staff).innerJoin(users, eq(users.userId, staff.userId)).where(eq(staff.staffId, staffId)).limit(1);
  return row ?? null;
}

/** Locks every admin row, so two concurrent demotions or removals of the last two admins take turns. */
async function assertAnotherAdmin(tx: Tx) {
  const admins = await tx.select({ staffId: staff.staffId }).from(staff).where(eq(staff.role, 'admin')).for('update');
  if (admins.length <= 1) throw new AppError(409, ErrorIds.conflict, 'last_admin_staff');
}

/**
 * POST /staff: an existing account becomes staff; an unknown email gets an account (named after the
 * email) and the password-reset email as its invitation (to the outbox when SMTP is not set).
 */
export async function addStaff(options: { ctx: AppContext; actor: Actor; input: AddStaffRequest; baseUrl: string; log: Log }): Promise<{ row: StaffRow; invited: boolean }> {
  const { ctx, actor, input } = options;
  staffPolicy.authorize(actor, 'add', { role: input.role });
  let user = await findUserByEmail({ db: ctx.db, email: input.email });
  const invited = !user;
  if (!user) {
    [user] = await ctx.db.insert(users).values({ name: input.email.split('@')[0], email: input.email }).returning();
  }
  const [existing] = await ctx.db.select({ staffId: staff.staffId }).from(staff).where(eq(staff.userId, user.userId)).limit(1);
  if (existing) throw new AppError(409, ErrorIds.conflict, 'already_staff');
  const [created] = await ctx.db.insert(staff).values({ userId: user.userId, role: input.role }).returning();
  invalidateUser(user.userId);
  if (invited) {
    try {
      await sendResetPasswordLink({ ctx, email: user.email, baseUrl: options.baseUrl, log: options.log });
    } catch (err) {
      options.log.error({ err, userId: user.userId }, 'staff invitation email failed');
    }
  }
  return { row: (await readStaff(ctx.db, created.staffId))!, invited };
}

/** PUT /staff: returns the row with its role before, for the audit diff. */
export async function changeStaffRole({ ctx, actor, staffId, role }: { ctx: AppContext; actor: Actor; staffId: number; role: StaffRole }): Promise<{ row: StaffRow; previousRole: string }> {
  const result = await ctx.db.transaction(async (tx) => {
    // The policy reads the whole row (select *); its type names only what `can` looks at.
    const before = (await staffPolicy.require(tx, actor, staffId, 'changeRole', { forUpdate: true })) as typeof staff.$inferSelect;
    if (before.role === 'admin' && role !== 'admin') await assertAnotherAdmin(tx);
    await tx.update(staff).set({ role, updatedAt: new Date() }).where(eq(staff.staffId, staffId));
    return { previousRole: before.role, userId: before.userId };
  });
  // The user's cached actor and sockets carry the old role (docs/architecture.md "Real-time").
  invalidateUser(result.userId);
  return { row: (await readStaff(ctx.db, staffId))!, previousRole: result.previousRole };
}

/** DELETE /staff/{id}: the account stays, as a customer. */
export async function removeStaff({ ctx, actor, staffId }: { ctx: AppContext; actor: Actor; staffId: number }): Promise<StaffRow> {
  const row = await ctx.db.transaction(async (tx) => {
    await staffPolicy.require(tx, actor, staffId, 'remove', { forUpdate: true });
    const found = (await readStaff(tx, staffId))!;
    if (found.role === 'admin') await assertAnotherAdmin(tx);
    await tx.delete(staff).where(eq(staff.staffId, staffId));
    return found;
  });
  invalidateUser(row.userId);
  return row;
}
