// Invitations of existing accounts to an organization (issue 30 item 12; members-service.ts addMember makes
// them). The invited account sees its pending invitations after signing in and accepts (it becomes a member
// with the invited role) or declines; until then it is no member, so it cannot act in the organization and
// the organization cannot read its use. The Admin lists and revokes what is pending. An invitation that is
// not the actor's is a 404, as is one already answered.
import { fileSrc } from '@pluma/common/files';
import { roleOfUserType } from '@pluma/common/organizations';
import { and, asc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { files, organizationInvitations, organizations, userOrganizations, users } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { invalidateUser } from '../../platform/auth/invalidation';
import { notFound } from '../../platform/http/errors';
import { requireOrganization } from './policy';

const inviters = alias(users, 'inviters');

/** GET /organizations/invitations: the actor's own pending invitations, oldest first. */
export async function listMyInvitations({ actor, db }: { actor: Actor; db: Db }) {
  const rows = await db
    .select({
      invitation: organizationInvitations,
      organizationName: organizations.name,
      thumbnail: { fileId: files.fileId, publicName: files.publicName, type: files.type },
      inviter: { name: inviters.name, lastName: inviters.lastName },
    })
    .from(organizationInvitations)
    .innerJoin(organizations, eq(organizations.organizationId, organizationInvitations.organizationId))
    .leftJoin(files, eq(files.fileId, organizations.thumbnailFileId))
    .leftJoin(inviters, eq(inviters.userId, organizationInvitations.invitedBy))
    .where(eq(organizationInvitations.userId, actor.user.userId))
    .orderBy(asc(organizationInvitations.createdAt), asc(organizationInvitations.invitationId));
  return {
    invitations: rows.map((r) => ({
      invitation_id: r.invitation.invitationId,
      organization_id: r.invitation.organizationId,
      organization_name: r.organizationName,
      thumbnail: r.thumbnail?.fileId ? fileSrc(r.thumbnail) : null,
      role: roleOfUserType(r.invitation.userTypeId),
      inviter: r.inviter ? `${r.inviter.name} ${r.inviter.lastName}`.trim() : '',
      createdAt: r.invitation.createdAt.toISOString(),
    })),
  };
}

/** POST /organizations/invitations/{id}/accept: the actor's invitation becomes their membership, once. */
export async function acceptInvitation({ actor, db, invitationId }: { actor: Actor; db: Db; invitationId: number }) {
  const userId = actor.user.userId;
  const accepted = await db.transaction(async (tx) => {
    const [invitation] = await tx
      .delete(organizationInvitations)
      .where(and(eq(organizationInvitations.invitationId, invitationId), eq(organizationInvitations.userId, userId)))
      .returning();
    if (!invitation) throw notFound();
    // Staff may have added the account meanwhile: the membership it has stands.
    const [member] = await tx
      .insert(userOrganizations)
      .values({ organizationId: invitation.organizationId, userId, userTypeId: invitation.userTypeId })
      .onConflictDoNothing()
      .returning();
    const userTypeId = member?.userTypeId ?? invitation.userTypeId;
    return { organization_id: invitation.organizationId, role: roleOfUserType(userTypeId), user_type_id: userTypeId };
  });
  invalidateUser(userId);
  return accepted;
}

/** POST /organizations/invitations/{id}/decline: the actor's invitation goes; the organization learns nothing more. */
export async function declineInvitation({ actor, db, invitationId }: { actor: Actor; db: Db; invitationId: number }) {
  const [gone] = await db
    .delete(organizationInvitations)
    .where(and(eq(organizationInvitations.invitationId, invitationId), eq(organizationInvitations.userId, actor.user.userId)))
    .returning({ id: organizationInvitations.invitationId });
  if (!gone) throw notFound();
}

/** GET /organizations/{id}/invitations (Admin): the emails invited that have not answered, oldest first. */
export async function listPendingInvitations({ actor, db, organizationId }: { actor: Actor; db: Db; organizationId: number }) {
  await requireOrganization(db, actor, organizationId, 'manage_users');
  const rows = await db
    .select({ invitation: organizationInvitations, email: users.email })
    .from(organizationInvitations)
    .innerJoin(users, eq(users.userId, organizationInvitations.userId))
    .where(eq(organizationInvitations.organizationId, organizationId))
    .orderBy(asc(organizationInvitations.createdAt), asc(organizationInvitations.invitationId));
  return {
    invitations: rows.map((r) => ({
      invitation_id: r.invitation.invitationId,
      email: r.email,
      role: roleOfUserType(r.invitation.userTypeId),
      user_type_id: r.invitation.userTypeId,
      createdAt: r.invitation.createdAt.toISOString(),
    })),
  };
}

/** DELETE /organizations/{orgId}/invitations/{invitationId} (Admin): the invitation is withdrawn. */
export async function revokeInvitation({ actor, db, organizationId, invitationId }: { actor: Actor; db: Db; organizationId: number; invitationId: number }) {
  await requireOrganization(db, actor, organizationId, 'manage_users');
  const [gone] = await db
    .delete(organizationInvitations)
    .where(and(eq(organizationInvitations.invitationId, invitationId), eq(organizationInvitations.organizationId, organizationId)))
    .returning({ userId: organizationInvitations.userId });
  if (!gone) throw notFound();
  return gone;
}
