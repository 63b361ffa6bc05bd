// The organization settings form's rules, pure so they are unit-tested: which fields a Save sends (a
// secret only when it was replaced — never the masked value it showed; spec part 2 §2 "AI key — masked
// like the admin settings") and how the welcome video toggle (file or URL) maps to the request.
import type { CreateOrganizationRequest, Organization, UpdateOrganizationRequest } from '@pluma/common/organizations';

export const SECRET_FIELDS = ['stripe_secret', 'stripe_webhook_secret', 'openai_api_key', 'web_search_api_key'] as const;
/** Its own web search (issue 32): '' = the operator's provider. */
export const WEB_SEARCH_PROVIDERS = ['', 'searxng', 'brave', 'tavily'] as const;
export type OrganizationWebSearchProvider = (typeof WEB_SEARCH_PROVIDERS)[number];
/** The web search key matters for Brave and Tavily only; the URL once a provider is chosen. */
export const webSearchNeedsKey = (provider: string) => provider === 'brave' || provider === 'tavily';
export type SecretField = (typeof SECRET_FIELDS)[number];

export interface OrganizationFormValues {
  name: string;
  tagline: string;
  slug: string;
  domain: string;
  stripe_public: string;
  /** A new value typed after Replace; null while the stored secret stays as it is. */
  stripe_secret: string | null;
  stripe_webhook_secret: string | null;
  openai_api_key: string | null;
  web_search_provider: OrganizationWebSearchProvider;
  web_search_url: string;
  web_search_api_key: string | null;
  thumbnail_file_id: number | null;
  /** spec part 2 §2: the welcome video is a file upload or a URL (a toggle). */
  video_source: 'file' | 'url';
  welcome_video_file_id: number | null;
  welcome_video_url: string;
  /** Issue 33: the organization's Admins must pass a second factor (TOTP or a passkey). */
  require_two_factor_admins: boolean;
}

export const EMPTY_ORGANIZATION_FORM: OrganizationFormValues = {
  name: '',
  tagline: '',
  slug: '',
  domain: '',
  stripe_public: '',
  stripe_secret: null,
  stripe_webhook_secret: null,
  openai_api_key: null,
  web_search_provider: '',
  web_search_url: '',
  web_search_api_key: null,
  thumbnail_file_id: null,
  video_source: 'file',
  welcome_video_file_id: null,
  welcome_video_url: '',
  require_two_factor_admins: false,
};

export function formValuesOf(o: Organization): OrganizationFormValues {
  return {
    name: o.name,
    tagline: o.tagline,
    slug: o.slug ?? '',
    domain: o.domain ?? '',
    stripe_public: o.stripe_public ?? '',
    stripe_secret: null,
    stripe_webhook_secret: null,
    openai_api_key: null,
    web_search_provider: (WEB_SEARCH_PROVIDERS as readonly string[]).includes(o.web_search_provider ?? '') ? (o.web_search_provider as OrganizationWebSearchProvider) : '',
    web_search_url: o.web_search_url ?? '',
    web_search_api_key: null,
    thumbnail_file_id: o.thumbnail_file_id,
    video_source: o.welcome_video_url && !o.welcome_video_file_id ? 'url' : 'file',
    welcome_video_file_id: o.welcome_video_file_id,
    welcome_video_url: o.welcome_video_url ?? '',
    require_two_factor_admins: o.require_two_factor_admins,
  };
}

/** POST /organizations: every field of the form, as an update sends them (issue 30 item 20). */
export function createPayload(v: OrganizationFormValues): CreateOrganizationRequest {
  const { organization_id: _id, ...fields } = updatePayload(0, v);
  return fields;
}

/** POST /organizations/update: every plain field, the secrets that were replaced, the chosen video source. */
export function updatePayload(organizationId: number, v: OrganizationFormValues): UpdateOrganizationRequest {
  const body: UpdateOrganizationRequest = {
    organization_id: organizationId,
    name: v.name,
    tagline: v.tagline,
    slug: v.slug,
    domain: v.domain,
    stripe_public: v.stripe_public,
    thumbnail_file_id: v.thumbnail_file_id,
    web_search_provider: v.web_search_provider,
    web_search_url: v.web_search_provider ? v.web_search_url.trim() : '',
    require_two_factor_admins: v.require_two_factor_admins,
  };
  for (const field of SECRET_FIELDS) {
    const value = v[field];
    // Replaced with '' clears the key; not replaced is left out (unchanged).
    if (value !== null) body[field] = value;
  }
  // Setting one source clears the other (common/organizations.ts).
  if (v.video_source === 'url') {
    body.welcome_video_url = v.welcome_video_url.trim() || null;
    body.welcome_video_file_id = null;
  } else {
    body.welcome_video_file_id = v.welcome_video_file_id;
    body.welcome_video_url = null;
  }
  return body;
}

/** spec part 2 §5: deletion goes ahead only when the exact name is typed. */
export const deletionConfirmed = (typed: string, name: string) => typed === name;

/**
 * The address an organization's Admin registers in Stripe for its own account's events (server
 * payments/routes.ts POST /stripe/webhook/organizations/{organization_id}, verified with its webhook secret).
 */
export const organizationWebhookUrl = (organizationId: number, origin: string = window.location.origin) =>
  `${origin}/api/stripe/webhook/organizations/${organizationId}`;
