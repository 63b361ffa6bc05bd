// The avatars trainings and outputs work on, through the avatars feature's policy.
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { avatars } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { forbidden } from '../../platform/http/errors';
import { requireAvatar as requireVisibleAvatar, type AvatarRow } from '../avatars';

/** Public avatars of the community list (as the avatars policy has them). */
export const sharedPubliclyAvatars = (): SQL => and(eq(avatars.public, true), isNull(avatars.kind)) as SQL;

/**
 * One of the actor's own avatars: a training runs on its author's key and account, so only the author trains
 * it (an admin editing someone's avatar does not). Unseen → 404; seen but not theirs → 403.
 */
export async function requireAvatar(db: Db, actor: Actor, avatarId: number): Promise<AvatarRow> {
  const avatar = await requireVisibleAvatar(db, actor, avatarId, 'update');
  if (avatar.userId !== actor.user.userId) throw forbidden();
  return avatar;
}
