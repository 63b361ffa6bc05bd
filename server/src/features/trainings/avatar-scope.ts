// The avatars trainings and outputs work on, through the avatars feature's policy.
import type { Db } from '../../db/client';
import type { Actor } from '../../platform/auth/actor';
import { forbidden } from '../../platform/http/errors';
import { avatarPolicy, type AvatarRow } from '../avatars';

/**
 * One of the actor's own avatars: a training runs on its author's key and account, so only the author trains
 * it (an admin editing someone's avatar does not). Unseen → 404; seen but not theirs → 403.
 */
export async function requireAvatar(db: Db, actor: Actor, avatarId: number): Promise<AvatarRow> {
  const avatar = await avatarPolicy.require(db, actor, avatarId, 'update');
  if (avatar.userId !== actor.user.userId) throw forbidden();
  return avatar;
}
