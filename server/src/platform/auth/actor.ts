// Who is making a request: the signed-in user, their staff role, the session they used and the organization
// the request acts in (DESIGN.md §7).
import type { OrganizationRole, StaffRole } from '@pluma/common/constants';
import type { users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;

/**
 * Actors may be served from the auth cache and shared by concurrent requests, so they are frozen:
 * code that needs a changed user reads it again instead of editing the actor.
 */
export interface Actor {
  user: UserRow;
  /** Null for a staff admin whose sign-in has not passed a second factor (see staffRoleAwaitingSecondFactor). */
  staffRole: StaffRole | null;
  /**
   * The staff role this user holds but may not use yet: a staff admin signed in without a second factor
   * (issue 33; OWASP ASVS 5.0 §6). Every policy sees no staff role; staff routes answer two_factor_required.
   */
  staffRoleAwaitingSecondFactor?: StaffRole | null;
  sessionId: number;
  familyId: string;
  /** The staff admin who opened this session with "log in as the user", else null. */
  impersonatedBy?: number | null;
  /** This sign-in passed a second factor (required of staff admins before /admin; features/auth/two-factor). */
  secondFactor?: boolean;
  /** When this sign-in last passed a second factor (at sign-in, on enrolling, or confirmed again since): factor changes need it recent. */
  secondFactorAt?: Date | null;
  /**
   * The organization this request acts in, resolved from its `organization_id` (organization.ts); null is
   * the Personal context. Cached actors carry null: the organization is resolved per request.
   */
  organization: OrganizationContext | null;
}

export interface OrganizationContext {
  organizationId: number;
  role: OrganizationRole;
  /** Staff acting in an organization they are not a member of (as its Admin). */
  asStaff: boolean;
  /**
   * An Admin of an organization that requires two-factor of its Admins, signed in without one (issue 33): their
   * `role` is then 'member' (organization.ts underSecondFactorRule) and the organization's admin actions answer
   * two_factor_required (features/organizations/policy.ts) until they pass one.
   */
  awaitingSecondFactor?: boolean;
}
