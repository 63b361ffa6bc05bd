// Who may see and do what with an avatar (DESIGN.md §7; spec part 2 §6 "Avatar edit and delete: admin or
// owner"; "Public toggles for avatars and templates: admin-type check only"). An avatar is private to its
// author in its context (Personal, or the organization it was made in: issue 12 item 7); a public one is
// visible read-only to every user (the community list); staff admins see and edit every avatar. Anything
// else is a 404 on every route, never a 403, so ids of other users' avatars reveal nothing.
import { AVATAR_ACTIONS, AVATAR_FILE_ACTIONS, type AvatarAction, type AvatarFileAction } from '@pluma/common/avatars';
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { avatarFiles, avatars } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { definePolicy, defineRules, isOwnInContext, ownInContext } from '../../platform/policy/define-policy';

export type AvatarRow = typeof avatars.$inferSelect;
export type AvatarFileLink = typeof avatarFiles.$inferSelect;

const isAdmin = (actor: Pick<Actor, 'staffRole'>) => actor.staffRole === 'admin';

/** The actor's own avatars in the context of this request (what GET /avatars lists). */
export const ownedBy = ownInContext(avatars);

/** Public avatars of the community list (the defaults are never public). */
export const sharedPublicly = (): SQL => and(eq(avatars.public, true), isNull(avatars.kind)) as SQL;

const own = (actor: Actor, row: AvatarRow) => isOwnInContext(actor, row);

/**
 * The scope of every avatar read and write: the actor's own in this context, the public ones, all for admins.
 * One the actor may not see is a 404; one they see but may not change (a public avatar of someone else, the
 * public toggle for a non-admin) is a 403.
 */
export const avatarPolicy = definePolicy<AvatarAction, AvatarRow>({
  actions: AVATAR_ACTIONS,
  table: avatars,
  id: avatars.avatarId,
  visibleTo: (actor) => (isAdmin(actor) ? sql`true` : (or(ownedBy(actor), sharedPublicly()) as SQL)),
  can(actor, action, row) {
    const readable = own(actor, row) || isAdmin(actor) || (row.public && row.kind === null);
    switch (action) {
      case 'read':
      case 'clone':
        return readable && (action === 'read' || row.kind === null);
      case 'update':
      case 'add_file':
      case 'delete':
      case 'sync':
        return own(actor, row) || isAdmin(actor);
      case 'refine':
        // The defaults' context comes from the configuration (admins reset them), so they are not refined.
        return (own(actor, row) || isAdmin(actor)) && row.kind === null;
      case 'publish':
        return isAdmin(actor) && row.kind === null;
    }
  },
});

export interface AvatarFile {
  avatar: AvatarRow;
  link: AvatarFileLink;
  fileOwnerId: number | null;
}

/**
 * A file of an avatar: whoever edits the avatar deletes its files and edits its .txt files; only the file's
 * owner (or an admin) downloads it, so a public avatar's reader — and whoever cloned it — never gets the bytes
 * (issue 13 item 3: sharing lets others use its knowledge but never download its files).
 */
export const avatarFilePolicy = defineRules<AvatarFileAction, AvatarFile>({
  actions: AVATAR_FILE_ACTIONS,
  can(actor, action, file) {
    const edits = avatarPolicy.can(actor, 'update', file.avatar);
    switch (action) {
      case 'download':
        return edits && (file.fileOwnerId === actor.user.userId || isAdmin(actor));
      case 'edit_text':
        return edits && file.link.editable;
      case 'delete':
        return edits;
    }
  },
});

/** Who resets a user's default avatars (spec part 2 §7 POST /users/resetDefaultAvatar): staff admins; 403 otherwise. */
export const defaultAvatarRules = defineRules<'reset', null>({
  actions: ['reset'],
  can: (actor) => isAdmin(actor),
});
