// Members of an organization (spec part 2 §2 "Organization admin user table", "User form", "User detail";
// §3 "Organization user row"; §4 "Saving a user to an organization"; §7 /organizations/users). Each operation
// authorizes through policy.ts first: the Admin adds, edits and removes; Managers read.
import { fileSrc } from '@pluma/common/files';
import { ErrorIds } from '@pluma/common/errors';
import {
  ORGANIZATION_MEMBERS_PAGE_SIZE,
  organizationUsersQuery,
  roleOfUserType,
  USER_TYPE_IDS,
  type AddOrganizationUser,
  type OrganizationUsersQuery,
} from '@pluma/common/organizations';
import { currentMonthRange, rangeBounds, utcDay } from '@pluma/common/rules/date-range';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { files, groups, groupUsers, organizationInvitations, organizations, userOrganizations, users } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { invalidateUser } from '../../platform/auth/invalidation';
import { AppError, forbidden, notFound } from '../../platform/http/errors';
import { escapeLikePattern } from '../../platform/http/like-pattern';
import type { Log } from '../../platform/log';
import { createResetLink, findUserByEmail, PAID_INVOICE_STATUSES, PAID_PURCHASE_STATUSES, sendOrganizationInvite, sendResetPasswordLink } from '../users';
import { rowsOf } from '../../db/rows';
import { requireOrganization, requireRequestOrganization } from './policy';

const list = (values: readonly string[]) => sql.join(values.map((value) => sql`${value}`), sql`, `);
const iso = (value: unknown) => (value == null ? null : new Date(value as string).toISOString());

/**
 * The money a member paid for this organization's products (its purchases), in dollars: paid invoices plus
 * paid purchases staff recorded without an invoice — the customers list's LTV rule (users/admin-service.ts)
 * limited to the organization, so a member's own Personal purchases stay private. `within` filters dates.
 */
function organizationLtvSql(userId: SQL, organizationId: number, within: (column: SQL) => SQL) {
  return sql`(
    (select coalesce(sum(i.total_payment), 0) from invoices i join purchases p on p.purchase_id = i.purchase_id
     where i.user_id = ${userId} and p.organization_id = ${organizationId} and i.status in (${list(PAID_INVOICE_STATUSES)}) and ${within(sql`i.created_at`)})
    + (select coalesce(sum(p.total_payment), 0) from purchases p
       where p.user_id = ${userId} and p.organization_id = ${organizationId} and p.status in (${list(PAID_PURCHASE_STATUSES)}) and not p.is_gift
         and not exists (select 1 from invoices i2 where i2.purchase_id = p.purchase_id) and ${within(sql`p.created_at`)})
  )::float8`;
}

/** Words charged to the user (the credits ledger's charges; one balance across contexts) within `within`. */
const wordsSql = (userId: SQL, within: (column: SQL) => SQL) =>
  sql`(select coalesce(-sum(l.words), 0)::int from credit_ledger l where l.user_id = ${userId} and l.words < 0 and ${within(sql`l.created_at`)})`;

/**
 * GET /organizations/{id}/users: the members by #ID, 50 a page, `query` a part of the name, last name or
 * email. Total Words and LTV count the date range (inclusive UTC days; the current month when none is
 * given, spec part 2 §9); `last_used` is the member's last use of the organization.
 */
export async function listMembers({ actor, db, organizationId, query, now = new Date() }: { actor: Actor; db: Db; organizationId: number; query: OrganizationUsersQuery; now?: Date }) {
  await requireOrganization(db, actor, organizationId, 'view_users');
  const q = organizationUsersQuery.parse(query);
  const month = currentMonthRange(utcDay(now));
  const { from, until } = rangeBounds({ start_date: q.start_date ?? (q.end_date ? '0001-01-01' : month.start_date), end_date: q.end_date ?? (q.start_date ? '9999-12-30' : month.end_date) });
  const within = (column: SQL) => sql`${column} >= ${from.toISOString()}::timestamptz and ${column} < ${until.toISOString()}::timestamptz`;
  const filters: SQL[] = [sql`uo.organization_id = ${organizationId}`];
  if (q.query) {
    const pattern = `%${escapeLikePattern(q.query)}%`;
    filters.push(sql`(u.name ilike ${pattern} or u.last_name ilike ${pattern} or u.email ilike ${pattern} or (u.name || ' ' || u.last_name) ilike ${pattern})`);
  }
  const where = sql.join(filters, sql` and `);
  const result = await db.execute(sql`
    select uo.user_organization_id, uo.user_id, uo.user_type_id, uo.last_use, u.name, u.last_name, u.email, u.words_used,
           ${wordsSql(sql`u.user_id`, within)} as total_words,
           ${organizationLtvSql(sql`u.user_id`, organizationId, within)} as ltv
    from user_organizations uo join users u on u.user_id = uo.user_id
    where ${where}
    order by uo.user_id asc
    limit ${ORGANIZATION_MEMBERS_PAGE_SIZE} offset ${(q.page - 1) * ORGANIZATION_MEMBERS_PAGE_SIZE}`);
  const counted = await db.execute(sql`select count(*) as total from user_organizations uo join users u on u.user_id = uo.user_id where ${where}`);
  return {
    total: Number(rowsOf(counted)[0]?.total ?? 0),
    users: rowsOf(result).map((r) => ({
      user_organization_id: Number(r.user_organization_id),
      user_id: Number(r.user_id),
      name: String(r.name),
      last_name: String(r.last_name),
      email: String(r.email),
      role: roleOfUserType(Number(r.user_type_id)),
      user_type_id: Number(r.user_type_id),
      total_words: Number(r.total_words),
      word_count: Number(r.words_used),
      last_used: iso(r.last_use),
      ltv: Math.round(Number(r.ltv) * 100) / 100,
    })),
  };
}

/**
 * GET /organizations/{orgId}/users/{userId}: the customer card, Total Words, LTV here and Last use — what the
 * spec's organization user row lists; the account's phone and other profile fields stay its own.
 */
export async function readMember({ actor, db, organizationId, userId }: { actor: Actor; db: Db; organizationId: number; userId: number }) {
  await requireOrganization(db, actor, organizationId, 'view_users');
  const always = () => sql`true`;
  const [row] = await db
    .select({
      membership: userOrganizations,
      user: { userId: users.userId, name: users.name, lastName: users.lastName, email: users.email, wordsUsed: users.wordsUsed },
      picture: { fileId: files.fileId, publicName: files.publicName, type: files.type },
      ltv: sql<number>`${organizationLtvSql(sql`${users.userId}`, organizationId, always)}`,
    })
    .from(userOrganizations)
    .innerJoin(users, eq(users.userId, userOrganizations.userId))
    .leftJoin(files, eq(files.fileId, users.fileId))
    .where(and(eq(userOrganizations.organizationId, organizationId), eq(userOrganizations.userId, userId)))
    .limit(1);
  if (!row) throw notFound();
  const memberGroups = await db
    .select({ group_id: groups.groupId, name: groups.name })
    .from(groupUsers)
    .innerJoin(groups, eq(groups.groupId, groupUsers.groupId))
    .where(and(eq(groups.organizationId, organizationId), eq(groupUsers.userId, userId)))
    .orderBy(sql`lower(${groups.name})`, groups.groupId);
  return {
    user_organization_id: row.membership.userOrganizationId,
    user_id: row.user.userId,
    name: row.user.name,
    last_name: row.user.lastName,
    email: row.user.email,
    picture: row.picture?.fileId ? fileSrc(row.picture) : null,
    role: roleOfUserType(row.membership.userTypeId),
    user_type_id: row.membership.userTypeId,
    total_words: row.user.wordsUsed,
    ltv: Math.round(Number(row.ltv) * 100) / 100,
    last_use: row.membership.lastUse?.toISOString() ?? null,
    createdAt: row.membership.createdAt.toISOString(),
    groups: memberGroups,
  };
}

async function membership(db: Db | Tx, organizationId: number, userId: number) {
  const [row] = await db
    .select()
    .from(userOrganizations)
    .where(and(eq(userOrganizations.organizationId, organizationId), eq(userOrganizations.userId, userId)))
    .for('update');
  return row ?? null;
}

/** Locks the organization's Admin memberships, so two concurrent demotions of its last two Admins take turns. */
async function assertAnotherAdmin(tx: Tx, organizationId: number) {
  const admins = await tx
    .select({ id: userOrganizations.userOrganizationId })
    .from(userOrganizations)
    .where(and(eq(userOrganizations.organizationId, organizationId), eq(userOrganizations.userTypeId, USER_TYPE_IDS.admin)))
    .for('update');
  if (admins.length <= 1) throw new AppError(409, ErrorIds.conflict, 'organization_last_admin');
}

const savedMember = (m: typeof userOrganizations.$inferSelect, user: { userId: number; name: string; lastName: string; email: string }, invited: boolean) => ({
  user_organization_id: m.userOrganizationId,
  organization_id: m.organizationId,
  user_id: m.userId,
  user_type_id: m.userTypeId,
  role: roleOfUserType(m.userTypeId),
  invited,
  pending: false,
  invitation_id: null,
  user: { user_id: user.userId, name: user.name, last_name: user.lastName, email: user.email },
});

/** A pending invitation as POST /organizations/users answers it: the account's name is not the Admin's to read yet. */
const savedInvitation = (i: typeof organizationInvitations.$inferSelect, email: string) => ({
  user_organization_id: null,
  organization_id: i.organizationId,
  user_id: i.userId,
  user_type_id: i.userTypeId,
  role: roleOfUserType(i.userTypeId),
  invited: false,
  pending: true,
  invitation_id: i.invitationId,
  user: { user_id: i.userId, name: '', last_name: '', email },
});

/**
 * POST /organizations/users. An unknown email becomes a new account with this organization as its default
 * and its membership (its link sets its password, spec part 2 §4). An existing account is invited (issue 30
 * item 12): it becomes a member only when it accepts (invitations-service.ts), so nobody is attached to an
 * organization, nor shows their use there, without consenting. Staff, who manage every customer anyway, add
 * an existing account directly (by `user_id`, staff only — an organization Admin could otherwise learn anyone's
 * email from an id — or by email). Either way the mail names the organization and the inviter; it failing
 * leaves the member or invitation in place (the reset email can be sent from the user detail).
 */
export async function addMember(options: { ctx: AppContext; actor: Actor; input: AddOrganizationUser; baseUrl: string; log: Log }) {
  const { ctx, actor, input } = options;
  const organizationId = requireRequestOrganization(actor, input.organization_id, 'manage_users').organizationId;
  let user: typeof users.$inferSelect | null = null;
  if (input.user_id !== undefined) {
    if (!actor.staffRole) throw notFound();
    [user] = await ctx.db.select().from(users).where(eq(users.userId, input.user_id)).limit(1);
    if (!user) throw notFound();
  } else if (input.email) {
    user = await findUserByEmail({ db: ctx.db, email: input.email });
  }
  const invited = !user;
  const asInvitation = !!user && !actor.staffRole;
  const saved = await ctx.db.transaction(async (tx) => {
    let target = user;
    if (!target) {
      const email = input.email!;
      [target] = await tx
        .insert(users)
        // The Admin's language is the best guess of the invitee's, for the invitation and the app.
        .values({ name: input.name || email.split('@')[0], lastName: input.last_name ?? '', email, lang: actor.user.lang, defaultOrganizationId: organizationId })
        .returning();
    }
    if (await membership(tx, organizationId, target.userId)) throw new AppError(409, ErrorIds.conflict, 'organization_already_member');
    if (asInvitation) {
      const [invitation] = await tx
        .insert(organizationInvitations)
        .values({ organizationId, userId: target.userId, userTypeId: input.user_type_id, invitedBy: actor.user.userId })
        .onConflictDoNothing()
        .returning();
      if (!invitation) throw new AppError(409, ErrorIds.conflict, 'organization_already_invited');
      return { member: null, invitation, user: target };
    }
    const [created] = await tx.insert(userOrganizations).values({ organizationId, userId: target.userId, userTypeId: input.user_type_id }).returning();
    // A staff addition answers any invitation the account still had to this organization.
    await tx.delete(organizationInvitations).where(and(eq(organizationInvitations.organizationId, organizationId), eq(organizationInvitations.userId, target.userId)));
    return { member: created, invitation: null, user: target };
  });
  if (saved.member) invalidateUser(saved.user.userId);
  try {
    const [organization] = await ctx.db.select({ name: organizations.name }).from(organizations).where(eq(organizations.organizationId, organizationId)).limit(1);
    const inviter = `${actor.user.name} ${actor.user.lastName}`.trim();
    const mode = invited ? 'new_account' : asInvitation ? 'invitation' : 'added';
    await sendOrganizationInvite({ ctx, user: saved.user, organization: organization?.name ?? '', inviter, mode, baseUrl: options.baseUrl });
  } catch (err) {
    options.log.error({ err, userId: saved.user.userId }, 'invitation email of an organization member failed');
  }
  return saved.member ? savedMember(saved.member, saved.user, invited) : savedInvitation(saved.invitation!, saved.user.email);
}

/** PUT /organizations/users: the member's role; the last Admin cannot be demoted (409). */
export async function changeMemberRole({ actor, db, organizationId, userId, userTypeId }: { actor: Actor; db: Db; organizationId: number; userId: number; userTypeId: number }) {
  requireRequestOrganization(actor, organizationId, 'manage_users');
  const result = await db.transaction(async (tx) => {
    const current = await membership(tx, organizationId, userId);
    if (!current) throw notFound();
    if (current.userTypeId === USER_TYPE_IDS.admin && userTypeId !== USER_TYPE_IDS.admin) await assertAnotherAdmin(tx, organizationId);
    const [updated] = await tx
      .update(userOrganizations)
      .set({ userTypeId, updatedAt: new Date() })
      .where(eq(userOrganizations.userOrganizationId, current.userOrganizationId))
      .returning();
    const [user] = await tx.select({ userId: users.userId, name: users.name, lastName: users.lastName, email: users.email }).from(users).where(eq(users.userId, userId));
    return { updated, user, previous: current.userTypeId };
  });
  invalidateUser(userId);
  return { saved: savedMember(result.updated, result.user, false), previousUserTypeId: result.previous };
}

/**
 * DELETE /organizations/{orgId}/{userId}: the membership and the user's place in the organization's
 * groups go; the account stays (it is the user's). The last Admin cannot be removed (409).
 */
export async function removeMember({ actor, db, organizationId, userId }: { actor: Actor; db: Db; organizationId: number; userId: number }) {
  await requireOrganization(db, actor, organizationId, 'manage_users');
  await db.transaction(async (tx) => {
    const current = await membership(tx, organizationId, userId);
    if (!current) throw notFound();
    if (current.userTypeId === USER_TYPE_IDS.admin) await assertAnotherAdmin(tx, organizationId);
    const organizationGroups = tx.select({ id: groups.groupId }).from(groups).where(eq(groups.organizationId, organizationId));
    await tx.delete(groupUsers).where(and(eq(groupUsers.userId, userId), inArray(groupUsers.groupId, organizationGroups)));
    await tx.delete(userOrganizations).where(eq(userOrganizations.userOrganizationId, current.userOrganizationId));
    await tx.update(users).set({ defaultOrganizationId: null }).where(and(eq(users.userId, userId), eq(users.defaultOrganizationId, organizationId)));
  });
  invalidateUser(userId);
}

/** A member's email (recovery actions act only on members of the organization), or a 404. */
async function memberEmail(db: Db, organizationId: number, userId: number): Promise<string> {
  const [row] = await db
    .select({ email: users.email })
    .from(userOrganizations)
    .innerJoin(users, eq(users.userId, userOrganizations.userId))
    .where(and(eq(userOrganizations.organizationId, organizationId), eq(userOrganizations.userId, userId)))
    .limit(1);
  if (!row) throw notFound();
  return row.email;
}

type Recovery = { ctx: AppContext; actor: Actor; organizationId: number; userId: number; baseUrl: string };

/** The user detail's "Send email" (spec §2): the member's own inbox gets the reset link; the Admin's. */
export async function sendMemberResetEmail({ ctx, actor, organizationId, userId, baseUrl, log }: Recovery & { log: Log }): Promise<void> {
  await requireOrganization(ctx.db, actor, organizationId, 'manage_users');
  const email = await memberEmail(ctx.db, organizationId, userId);
  await sendResetPasswordLink({ ctx, email, baseUrl, log });
}

/**
 * The user detail's "Generate link": the link signs into the member's whole account (Personal too), so it is
 * handed only to staff (with the staff rules of POST /users/resetPasswordLink); an organization Admin sends
 * the email. 404/403 as for the organization first, then 403 for anyone not staff.
 */
export async function createMemberResetLink({ ctx, actor, organizationId, userId, baseUrl }: Recovery): Promise<{ link: string }> {
  await requireOrganization(ctx.db, actor, organizationId, 'manage_users');
  if (!actor.staffRole) throw forbidden();
  const email = await memberEmail(ctx.db, organizationId, userId);
  const { link } = await createResetLink({ ctx, actor, email, baseUrl });
  return { link };
}
