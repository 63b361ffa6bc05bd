// The exact user fields that leave the server (spec part 1 §3 "User / customer"). Never raw rows:
// password_hash and other internals stay here.
import { UNLIMITED_WORDS } from '@pluma/common/constants';
import type { CurrentUser, UserSummary } from '@pluma/common/users';
import { SECRET_MASK } from '@pluma/common/appconfig';
import type { AiKeyStatus } from '@pluma/common/avatars';
import type { AiKeyRow } from './ai-keys';
import type { files, users } from '../../db/schema';
import type { AccessState } from './access';

type UserRow = typeof users.$inferSelect;
/** The picture file of a user, as the current-user view needs it. */
export type PictureRow = Pick<typeof files.$inferSelect, 'fileId' | 'publicName' | 'type'>;

/** spec part 1 §7: images are served under /api/files/{name}.{type}. */
export function pictureUrl(file: PictureRow | null): string | null {
  if (!file) return null;
  return file.publicName ? `/api/files/${file.publicName}.${file.type}` : `/api/files/${file.fileId}`;
}

/** Everything the current-user view is made of (users/queries.ts readCurrentUser). */
export interface CurrentUserRows {
  user: UserRow;
  access: AccessState;
  picture: PictureRow | null;
  /** A confirmed authenticator (totp_secrets; features/auth/two-factor). */
  twoFactorEnabled: boolean;
}

/** `secondFactorVerified`: the session asking passed a second factor (the view is per user, this per sign-in). */
export function presentCurrentUser({ user, access, picture, twoFactorEnabled }: CurrentUserRows, secondFactorVerified = false): CurrentUser {
  const { purchase } = access;
  return {
    user_id: user.userId,
    name: user.name,
    last_name: user.lastName,
    email: user.email,
    phone: user.phone,
    company: user.company,
    lang: user.lang === 'es' ? 'es' : 'en',
    dark_mode: user.darkMode,
    birthday: user.birthday,
    file_id: user.fileId,
    picture: pictureUrl(picture),
    signup_reason: user.signupReason,
    instagram: user.instagram,
    has_access: access.hasAccess,
    // spec part 1 §9: 1000000 means unlimited; staff are shown as unlimited.
    available_words: access.staff ? UNLIMITED_WORDS : user.availableWords,
    staff: access.staff ? { staff_id: access.staff.staffId, role: access.staff.role } : null,
    purchase: purchase
      ? {
          purchase_id: purchase.purchase.purchaseId,
          status: purchase.purchase.status,
          product_id: purchase.purchase.productId,
          product: purchase.product
            ? { product_id: purchase.product.productId, name: purchase.product.name, video_src: purchase.product.videoSrc }
            : null,
          createdAt: purchase.purchase.createdAt.toISOString(),
          expires_at: purchase.expiresAt.toISOString(),
        }
      : null,
    default_organization: user.defaultOrganizationId ? { organization_id: user.defaultOrganizationId } : null,
    createdAt: user.createdAt.toISOString(),
    // Required of staff admins (OWASP ASVS 5.0 §6: accounts that hold payment keys).
    two_factor: { enabled: twoFactorEnabled, required: access.staff?.role === 'admin', verified: secondFactorVerified },
  };
}

export function presentUserSummary(user: Pick<UserRow, 'userId' | 'name' | 'lastName' | 'email' | 'phone'>): UserSummary {
  return { user_id: user.userId, name: user.name, last_name: user.lastName, email: user.email, phone: user.phone };
}

/** The user's AI-provider key as Settings shows it: masked to its last characters, never the key. */
export function presentAiKey(row: AiKeyRow | null): AiKeyStatus {
  if (!row) return { configured: false, provider: null, masked: null, updatedAt: null };
  return { configured: true, provider: 'openai', masked: SECRET_MASK + row.last4, updatedAt: row.updatedAt.toISOString() };
}
