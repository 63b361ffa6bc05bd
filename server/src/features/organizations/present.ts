// The JSON of an organization (spec part 2 §3 "Organization"): exactly these fields leave the server. The
// payment and AI secrets go only to who may update the organization, and then masked to their last 4
// characters like the admin settings (common/appconfig.ts maskSecret); a value sealed with another
// APP_SECRET shows as the mask alone.
import { maskSecret, SECRET_MASK } from '@pluma/common/appconfig';
import { fileSrc } from '@pluma/common/files';
import { roleOfUserType, type Organization } from '@pluma/common/organizations';
import type { AppContext } from '../../context';
import { decryptSecret } from '../../platform/crypto/secret-box';
import type { Actor } from '../../platform/auth/actor';
import { standingIn, underSecondFactorRule } from '../../platform/auth/organization';
import { organizationRules } from './policy';
import type { OrganizationListRow } from './service';

function masked(ctx: AppContext, sealed: string | null): string {
  if (!sealed) return '';
  try {
    return maskSecret(decryptSecret(ctx.env.APP_SECRET, sealed));
  } catch {
    return SECRET_MASK;
  }
}

export function presentOrganization(ctx: AppContext, actor: Actor, row: OrganizationListRow): Organization {
  const o = row.organization;
  // The role the actor acts with, by the membership rule: their membership's, else Admin for staff admins; an
  // Admin whose required second factor is pending acts as a Member (abilities agree with what the server refuses).
  const membership = standingIn(actor, o.organizationId, row.userTypeId);
  const standing = membership ? underSecondFactorRule(actor, membership, o.requireTwoFactorAdmins) : { role: null };
  const secrets = organizationRules.can(actor, 'update', standing)
    ? {
        stripe_secret: masked(ctx, o.stripeSecretSealed),
        stripe_webhook_secret: masked(ctx, o.stripeWebhookSecretSealed),
        openai_api_key: masked(ctx, o.openaiApiKeySealed),
        web_search_provider: o.webSearchProvider ?? '',
        web_search_url: o.webSearchUrl ?? '',
        web_search_api_key: masked(ctx, o.webSearchApiKeySealed),
      }
    : {};
  return {
    organization_id: o.organizationId,
    name: o.name,
    tagline: o.tagline,
    slug: o.slug,
    domain: o.domain,
    thumbnail: row.thumbnail?.fileId ? fileSrc(row.thumbnail) : null,
    thumbnail_file_id: o.thumbnailFileId,
    // An uploaded video is served to the organization's members by GET /organizations/{id}/welcome-video.
    welcome_video: o.welcomeVideoFileId ? `/api/organizations/${o.organizationId}/welcome-video` : o.welcomeVideoUrl,
    welcome_video_file_id: o.welcomeVideoFileId,
    welcome_video_url: o.welcomeVideoUrl,
    stripe_public: o.stripePublic,
    require_two_factor_admins: o.requireTwoFactorAdmins,
    ...secrets,
    web_search: o.webSearchProvider !== null,
    role: row.userTypeId === null ? null : (roleOfUserType(row.userTypeId) ?? null),
    user_type_id: row.userTypeId,
    members_count: row.membersCount,
    createdAt: o.createdAt.toISOString(),
    abilities: organizationRules.abilities(actor, standing),
  };
}
