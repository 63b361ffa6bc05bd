// Who may see and do what with an avatar (DESIGN.md §7; spec part 2 §6 "Avatar edit and delete: admin or
// owner"; "Public toggles for avatars and templates: admin-type check only"). An avatar is private to its
// author in its context (Personal, or the organization it was made in: issue 12 item 7); a public one is
// visible read-only to every user (the community list); staff admins see and edit every avatar. Anything
// else is a 404 on every route, never a 403, so ids of other users' avatars reveal nothing.
import { AVATAR_ACTIONS, AVATAR_FILE_ACTIONS, type AvatarAction, type AvatarFileAction } from '@pluma/common/avatars';
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { avatarFiles, avatars } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { forbidden, notFound } from '../../platform/http/errors';
import { abilitiesOf } from '../../platform/policy/abilities';

export type AvatarRow = typeof avatars.$inferSelect;
export type AvatarFileLink = typeof avatarFiles.$inferSelect;

const isAdmin = (actor: Pick<Actor, 'staffRole'>) => actor.staffRole === 'admin';

/** The actor's own avatars in the context of this request (what GET /avatars lists). */
export function ownedBy(actor: Pick<Actor, 'user' | 'organization'>): SQL {
  const context = actor.organization ? eq(avatars.organizationId, actor.organization.organizationId) : isNull(avatars.organizationId);
  return and(eq(avatars.userId, actor.user.userId), context) as SQL;
}

/** Public avatars of the community list (the defaults are never public). */
export const sharedPublicly = (): SQL => and(eq(avatars.public, true), isNull(avatars.kind)) as SQL;

/** The scope of every avatar read and write: the actor's own in this context, the public ones, all for admins. */
export function visibleTo(actor: Pick<Actor, 'user' | 'organization' | 'staffRole'>): SQL {
  if (isAdmin(actor)) return sql`true`;
  return or(ownedBy(actor), sharedPublicly()) as SQL;
}

const isOwnInContext = (actor: Actor, row: AvatarRow) => row.userId === actor.user.userId && row.organizationId === (actor.organization?.organizationId ?? null);

export function can(actor: Actor, action: AvatarAction, row: AvatarRow): boolean {
  const own = isOwnInContext(actor, row);
  const readable = own || isAdmin(actor) || (row.public && row.kind === null);
  switch (action) {
    case 'read':
    case 'clone':
      return readable && (action === 'read' || row.kind === null);
    case 'update':
    case 'add_file':
    case 'delete':
    case 'sync':
      return own || isAdmin(actor);
    case 'refine':
      // The defaults' context comes from the configuration (admins reset them), so they are not refined.
      return (own || isAdmin(actor)) && row.kind === null;
    case 'publish':
      return isAdmin(actor) && row.kind === null;
  }
}

export const avatarAbilities = (actor: Actor, row: AvatarRow) => abilitiesOf(can, AVATAR_ACTIONS, actor, row);

/**
 * A file of an avatar: whoever edits the avatar deletes its files and edits its .txt files; only the file's
 * owner (or an admin) downloads it, so a public avatar's reader — and whoever cloned it — never gets the bytes
 * (issue 13 item 3: sharing lets others use its knowledge but never download its files).
 */
export function canFile(actor: Actor, action: AvatarFileAction, file: { avatar: AvatarRow; link: AvatarFileLink; fileOwnerId: number | null }): boolean {
  const edits = can(actor, 'update', file.avatar);
  switch (action) {
    case 'download':
      return edits && (file.fileOwnerId === actor.user.userId || isAdmin(actor));
    case 'edit_text':
      return edits && file.link.editable;
    case 'delete':
      return edits;
  }
}

export const avatarFileAbilities = (actor: Actor, file: { avatar: AvatarRow; link: AvatarFileLink; fileOwnerId: number | null }) =>
  abilitiesOf(canFile, AVATAR_FILE_ACTIONS, actor, file);

export async function findVisibleAvatar(db: Db | Tx, actor: Actor, avatarId: number): Promise<AvatarRow | null> {
  const [row] = await db
    .select()
    .from(avatars)
    .where(and(visibleTo(actor), eq(avatars.avatarId, avatarId)))
    .limit(1);
  return row ?? null;
}

/**
 * The avatar if the actor may take `action` on it. One the actor may not see is a 404; one they see but may
 * not change (a public avatar of someone else, the public toggle for a non-admin) is a 403.
 */
export async function requireAvatar(db: Db | Tx, actor: Actor, avatarId: number, action: AvatarAction = 'read'): Promise<AvatarRow> {
  const row = await findVisibleAvatar(db, actor, avatarId);
  if (!row || !can(actor, 'read', row)) throw notFound();
  if (!can(actor, action, row)) throw forbidden();
  return row;
}
