// Who is making a request: the signed-in user, their staff role and the session they used.
import type { StaffRole } from '@pluma/common/constants';
import type { users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;

/**
 * Actors may be served from the auth cache and shared by concurrent requests, so they are frozen:
 * code that needs a changed user reads it again instead of editing the actor.
 */
export interface Actor {
  user: UserRow;
  staffRole: StaffRole | null;
  sessionId: number;
  familyId: string;
}
