import { z } from 'zod';
import { CONFIG_CHOICES, CONFIG_KEYS, isConfigKey, type ConfigKey, type ConfigKeyDef } from './config-keys';
import { MASKED_VISIBLE_CHARS } from './constants';
import { text } from './schema-kit';

export * from './config-keys';

/** GET /api/appconfig: the public keys as a list of key/value pairs (spec part 1 §7). Booleans are 'true'/'false'. */
/** What staff do with the app configuration (spec part 1 §4): admins only read it whole, reveal a secret, test a key and save. */
export const APP_CONFIG_ACTIONS = ['read', 'reveal', 'test', 'edit'] as const;
export type AppConfigAction = (typeof APP_CONFIG_ACTIONS)[number];

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

/** POST /api/appconfig/admin/reveal: the full value of one secret (audited). */
export const revealConfigRequest = z.object({ key: text().min(1).max(100) });
export const revealConfigResponse = configEntry;

// Limits per kind (PUT /api/appconfig). Texts are short labels; longtext holds CSS, prompts and tracking codes.
export const CONFIG_TEXT_MAX = 2000;
export const CONFIG_LONGTEXT_MAX = 100_000;
export const CONFIG_SECRET_MAX = 10_000;

/**
 * PUT /api/appconfig: changes as a list of key/value pairs. The value's bound here is only a ceiling: each
 * kind's own limit is checked by configChangeProblem, whose message names the key.
 */
export const updateConfigRequest = z
  .array(z.object({ key: text().max(200), value: text().max(CONFIG_LONGTEXT_MAX * 10) }))
  .min(1)
  .max(200);

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
      return value.length <= CONFIG_TEXT_MAX && (CONFIG_CHOICES[key]?.includes(value) ?? true);
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

// ---- Key tests (the settings screen's "Test" beside the AI and Stripe keys): one real call to the
// provider with the key typed (not saved yet) or, without one, the key in use.
export const TESTABLE_CONFIG_KEYS = ['openai_secret_key', 'stripe_private_key'] as const;
export type TestableConfigKey = (typeof TESTABLE_CONFIG_KEYS)[number];
export const isTestableConfigKey = (key: string): key is TestableConfigKey => (TESTABLE_CONFIG_KEYS as readonly string[]).includes(key);

/** POST /api/appconfig/admin/test. A masked or empty `value` means "the key in use". */
export const configKeyTestRequest = z.object({
  key: z.enum(TESTABLE_CONFIG_KEYS),
  // A key is printable ASCII without spaces (or the masked form): anything else is refused before any call.
  value: text()
    .max(CONFIG_SECRET_MAX)
    .regex(/^[\x21-\x7e•]*$/, { error: 'invalid_format' })
    .optional(),
});
export type ConfigKeyTestRequest = z.infer<typeof configKeyTestRequest>;

/** The provider's answer: ok, or its HTTP status, error code and message ('not_configured' when there is no key). */
export const configKeyTestResponse = z.object({
  ok: z.boolean(),
  provider: z.enum(['openai', 'stripe']),
  status: z.number().nullable(),
  code: z.string().nullable(),
  message: z.string().nullable(),
});
export type ConfigKeyTestResult = z.infer<typeof configKeyTestResponse>;
