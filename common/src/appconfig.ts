import { z } from 'zod';
import { MASKED_VISIBLE_CHARS } from './constants';

// App configuration keys (spec part 1 §3) with defaults, kind and visibility.
// 'secret' values are encrypted at rest, never sent by GET /api/appconfig, masked in the admin view.
export type ConfigKind = 'text' | 'bool' | 'url' | 'json' | 'color' | 'secret' | 'longtext';

export interface ConfigKeyDef {
  kind: ConfigKind;
  default: string;
  /** Sent to every visitor by GET /api/appconfig. */
  public: boolean;
}

const text = (def = '', pub = true): ConfigKeyDef => ({ kind: 'text', default: def, public: pub });
const bool = (def: boolean): ConfigKeyDef => ({ kind: 'bool', default: String(def), public: true });
const url = (def = '', pub = true): ConfigKeyDef => ({ kind: 'url', default: def, public: pub });
const secret = (): ConfigKeyDef => ({ kind: 'secret', default: '', public: false });

export const CONFIG_KEYS = {
  app_name: text('Pluma'),
  title: text('Pluma — write 10× faster with AI'),
  tagline: text('Chat, templates, avatars and documents: your AI writing studio.'),
  email: text('support@example.com'),
  dark_logo: url(),
  light_logo: url(),
  favicon_url: url(),
  // spec part 2 §3 lists `favicon` beside favicon_url among the keys the app shell reads.
  favicon: url(),
  landing_image_src: url(),
  landing_logo_src: url(),
  landing_enabled: bool(true),
  spanish_enabled: bool(true),
  signup_enabled: bool(true),
  landing_bg_className: text(),
  landing_text_className: text(),
  high_ticket_offer_name: text(),
  high_ticket_offer_link: url(),
  feature1_title: text('Chat with the best models'),
  feature1_description: text('GPT, Claude and Grok in one place, with your conversations saved and searchable.'),
  feature2_title: text('Templates and workflows'),
  feature2_description: text('Fill in a few fields and get posts, emails and scripts in your voice.'),
  feature3_title: text('Avatars that know you'),
  feature3_description: text('Train personas with your context and files so every answer sounds like you.'),
  benefit1_title: text(),
  benefit1_description: text(),
  benefit2_title: text(),
  benefit2_description: text(),
  benefit3_title: text(),
  benefit3_description: text(),
  avatars_enabled: bool(true),
  super_fetch: bool(true),
  templates_enabled: bool(true),
  documents_enabled: bool(true),
  hashtags_enabled: bool(true),
  topics_enabled: bool(true),
  chatwidget_enabled: bool(true),
  tutorials_enabled: bool(true),
  organizations_enabled: bool(true),
  search_enabled: bool(true),
  firebaseConfig: { kind: 'json', default: '', public: false },
  bucket: text('', false),
  region: text('', false),
  S3_ENDPOINT: url('', true),
  stripe_public_key: text('', true),
  stripe_private_key: secret(),
  stripe_webhook_key: secret(),
  openai_secret_key: secret(),
  openai_model: text('gpt-4o-mini', true),
  welcome_email_webhook_url: url('', false),
  reset_password_email_webhook_url: url('', false),
  super_fetch_prompt: { kind: 'longtext', default: '', public: false },
  templates_default_sort: text('createdAt_desc'),
  app_css: { kind: 'longtext', default: '', public: true },
  social_media_image: url(),
  head_tracking_codes: { kind: 'longtext', default: '', public: true },
  body_tracking_codes: { kind: 'longtext', default: '', public: true },
  primary_color: { kind: 'color', default: '#6d28d9', public: true },
  accent_color: { kind: 'color', default: '#f59e0b', public: true },
} satisfies Record<string, ConfigKeyDef>;

export type ConfigKey = keyof typeof CONFIG_KEYS;
export const isConfigKey = (key: string): key is ConfigKey => Object.hasOwn(CONFIG_KEYS, key);


/** GET /api/appconfig: the public keys as a list of key/value pairs (spec part 1 §7). Booleans are 'true'/'false'. */
export const configEntry = z.object({ key: z.string(), value: z.string() });
export const publicConfigResponse = z.array(configEntry);
export type ConfigEntry = z.infer<typeof configEntry>;

/** GET /api/appconfig/admin: every key; secrets masked to their last 4 characters. */
export const adminConfigEntry = configEntry.extend({
  kind: z.enum(['text', 'bool', 'url', 'json', 'color', 'secret', 'longtext']),
  public: z.boolean(),
  masked: z.boolean(),
});
export const adminConfigResponse = z.array(adminConfigEntry);

/** PUT /api/appconfig: changes as a list of key/value pairs. */
export const updateConfigRequest = z.array(configEntry).min(1).max(200);

/** POST /api/appconfig/admin/reveal: the full value of one secret (audited). */
export const revealConfigRequest = z.object({ key: z.string().min(1).max(100) });
export const revealConfigResponse = configEntry;

// Limits per kind (PUT /api/appconfig). Texts are short labels; longtext holds CSS, prompts and tracking codes.
export const CONFIG_TEXT_MAX = 2000;
export const CONFIG_LONGTEXT_MAX = 100_000;
export const CONFIG_SECRET_MAX = 10_000;

/** What a masked secret looks like: bullets, then the last 4 characters (spec part 1 §9). */
export const SECRET_MASK = '••••••••';

export function maskSecret(value: string): string {
  if (!value) return '';
  // A short secret would be shown whole by its last 4 characters; show bullets only.
  if (value.length <= MASKED_VISIBLE_CHARS * 2) return SECRET_MASK;
  return SECRET_MASK + value.slice(-MASKED_VISIBLE_CHARS);
}

/** A value that is the masked form (the admin form saved without revealing) leaves the secret unchanged. */
export const isMaskedSecret = (value: string) => value.startsWith('••');

const COLOR_PATTERN = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

function isConfigUrl(value: string): boolean {
  if (value === '') return true;
  if (value.length > CONFIG_TEXT_MAX || /\s/.test(value)) return false;
  // Uploaded logos and images are served by us at /api/files/{name}.{type}: a root-relative path is fine.
  if (value.startsWith('/')) return !value.startsWith('//') && !value.startsWith('/\\');
  try {
    const parsed = new URL(value);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

function isJsonText(value: string): boolean {
  if (value === '') return true;
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}

/** Whether `value` fits the kind of `key`; the same check runs in the admin form and on the server. */
export function isValidConfigValue(key: ConfigKey, value: string): boolean {
  const def: ConfigKeyDef = CONFIG_KEYS[key];
  switch (def.kind) {
    case 'bool':
      return value === 'true' || value === 'false';
    case 'url':
      return isConfigUrl(value);
    case 'color':
      return COLOR_PATTERN.test(value);
    case 'json':
      return value.length <= CONFIG_LONGTEXT_MAX && isJsonText(value);
    case 'text':
      return value.length <= CONFIG_TEXT_MAX;
    case 'longtext':
      return value.length <= CONFIG_LONGTEXT_MAX;
    case 'secret':
      return value.length <= CONFIG_SECRET_MAX;
  }
}

/** The first problem of a list of changes, as the message key the API answers with; null when all are valid. */
export function configChangeProblem(
  changes: ConfigEntry[],
): { messageKey: 'config_key_unknown' | 'config_value_invalid'; key: string } | null {
  for (const { key, value } of changes) {
    if (!isConfigKey(key)) return { messageKey: 'config_key_unknown', key };
    if (CONFIG_KEYS[key].kind === 'secret' && isMaskedSecret(value)) continue;
    if (!isValidConfigValue(key, value)) return { messageKey: 'config_value_invalid', key };
  }
  return null;
}
