// Which configuration key sits on which tab of /admin/settings (spec part 1 §2 "Settings (admin)": content,
// advanced, super fetch) and with which control. Every key of CONFIG_KEYS appears once (a test checks it).
import { CONFIG_KEYS, type ConfigKey } from '@pluma/common/appconfig';

export const SETTINGS_TABS = ['content', 'advanced', 'superFetch'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

export interface SettingsSection {
  id: string;
  keys: ConfigKey[];
}

/** Images uploaded through POST /api/files (logos, favicon, landing image, social image). */
export const IMAGE_KEYS: ReadonlySet<ConfigKey> = new Set<ConfigKey>([
  'dark_logo',
  'light_logo',
  'favicon_url',
  'favicon',
  'landing_image_src',
  'landing_logo_src',
  'social_media_image',
]);

/** Code areas in a monospace font. */
export const CODE_KEYS: ReadonlySet<ConfigKey> = new Set<ConfigKey>(['app_css', 'head_tracking_codes', 'body_tracking_codes', 'firebaseConfig']);

/** Keys with a "Test" beside them (POST /appconfig/admin/test). */
export const TESTED_KEYS: ReadonlySet<ConfigKey> = new Set<ConfigKey>(['openai_secret_key', 'stripe_private_key']);

export const SETTINGS_LAYOUT: Record<SettingsTab, SettingsSection[]> = {
  content: [
    { id: 'brand', keys: ['app_name', 'title', 'tagline', 'email', 'primary_color', 'accent_color'] },
    { id: 'images', keys: ['dark_logo', 'light_logo', 'favicon_url', 'favicon', 'landing_logo_src', 'landing_image_src', 'social_media_image'] },
    {
      id: 'landing',
      keys: ['landing_enabled', 'spanish_enabled', 'signup_enabled', 'landing_bg_className', 'landing_text_className', 'high_ticket_offer_name', 'high_ticket_offer_link'],
    },
    {
      id: 'features',
      keys: ['feature1_title', 'feature1_description', 'feature2_title', 'feature2_description', 'feature3_title', 'feature3_description'],
    },
    {
      id: 'benefits',
      keys: ['benefit1_title', 'benefit1_description', 'benefit2_title', 'benefit2_description', 'benefit3_title', 'benefit3_description'],
    },
  ],
  advanced: [
    {
      id: 'switches',
      keys: [
        'avatars_enabled',
        'templates_enabled',
        'documents_enabled',
        'hashtags_enabled',
        'topics_enabled',
        'chatwidget_enabled',
        'tutorials_enabled',
        'organizations_enabled',
        'search_enabled',
        'templates_default_sort',
      ],
    },
    { id: 'ai', keys: ['openai_secret_key', 'openai_model', 'web_search_provider', 'web_search_url', 'web_search_api_key'] },
    { id: 'payments', keys: ['stripe_public_key', 'stripe_private_key', 'stripe_webhook_key'] },
    { id: 'storage', keys: ['bucket', 'region', 'S3_ENDPOINT', 'firebaseConfig'] },
    { id: 'sms', keys: ['twilio_account_sid', 'twilio_auth_token', 'twilio_from_number'] },
    { id: 'emails', keys: ['welcome_email_webhook_url', 'reset_password_email_webhook_url'] },
    { id: 'code', keys: ['app_css', 'head_tracking_codes', 'body_tracking_codes'] },
  ],
  superFetch: [{ id: 'superFetch', keys: ['super_fetch', 'super_fetch_prompt'] }],
};

export const isSecretKey = (key: ConfigKey) => CONFIG_KEYS[key].kind === 'secret';

/**
 * Fields shown only when another setting makes them matter (issue 32): the web search URL once a provider
 * is chosen (SearXNG's address; for Brave and Tavily an API base other than theirs), its key for Brave and
 * Tavily only. A value hidden this way is kept as it is.
 */
export function isFieldShown(key: ConfigKey, values: Readonly<Partial<Record<ConfigKey, string>>>): boolean {
  const provider = values.web_search_provider ?? '';
  if (key === 'web_search_url') return provider !== '';
  if (key === 'web_search_api_key') return provider === 'brave' || provider === 'tavily';
  return true;
}
