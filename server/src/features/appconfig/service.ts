// App configuration (spec part 1 §2 Settings, §3 keys, §4 settings editing): the public view, the admin
// view with secrets masked, revealing one secret, and all-or-nothing updates. The admin operations authorize
// their actor inside (policy.ts appConfigRules).
import {
  CONFIG_KEYS,
  configChangeProblem,
  isConfigKey,
  isMaskedSecret,
  maskSecret,
  SECRET_MASK,
  type adminConfigEntry,
  type ConfigEntry,
  type ConfigKey,
  type ConfigKeyDef,
} from '@pluma/common/appconfig';
import { ErrorIds } from '@pluma/common/errors';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { appConfig } from '../../db/schema';
import { providerSettingsChanged } from '../../platform/ai/settings';
import { stripeSettingsChanged } from '../payments';
import type { Actor } from '../../platform/auth/actor';
import { decryptSecret, encryptSecret } from '../../platform/crypto/secret-box';
import { featureSwitchesChanged } from './feature-gate';
import { AppError } from '../../platform/http/errors';
import { appConfigRules } from './policy';

export type AdminConfigEntry = z.infer<typeof adminConfigEntry>;
type StoredRow = typeof appConfig.$inferSelect;

const configKeys = Object.keys(CONFIG_KEYS) as ConfigKey[];
const defOf = (key: ConfigKey): ConfigKeyDef => CONFIG_KEYS[key];

/** Sent to everyone: never a secret, whatever its `public` flag says. */
export const isPublicKey = (key: ConfigKey) => defOf(key).public && defOf(key).kind !== 'secret';

async function storedRows(ctx: AppContext): Promise<Map<string, StoredRow>> {
  const rows = await ctx.db.select().from(appConfig);
  return new Map(rows.map((row) => [row.key, row]));
}

function plainValue(ctx: AppContext, key: ConfigKey, row: StoredRow | undefined): string {
  if (!row || row.value == null) return defOf(key).default;
  return row.encrypted ? decryptSecret(ctx.env.APP_SECRET, row.value) : row.value;
}

/**
 * GET /api/appconfig: public keys in the order of CONFIG_KEYS.
 * @contract-exception public: every page loads it before anyone signs in.
 */
export async function publicConfig(ctx: AppContext): Promise<ConfigEntry[]> {
  const rows = await storedRows(ctx);
  return configKeys.filter(isPublicKey).map((key) => ({ key, value: plainValue(ctx, key, rows.get(key)) }));
}

/** GET /api/appconfig/admin: every key; a secret shows only its last 4 characters (spec part 1 §4, §9). */
export async function adminConfig({ ctx, actor }: { ctx: AppContext; actor: Actor }): Promise<AdminConfigEntry[]> {
  appConfigRules.authorize(actor, 'read', null);
  const rows = await storedRows(ctx);
  return configKeys.map((key) => {
    const def = defOf(key);
    const base = { key, kind: def.kind, public: isPublicKey(key) };
    if (def.kind !== 'secret') return { ...base, value: plainValue(ctx, key, rows.get(key)), masked: false };
    let value: string;
    try {
      value = plainValue(ctx, key, rows.get(key));
    } catch {
      // Sealed with another APP_SECRET: the admin sees that a value exists and can replace it.
      return { ...base, value: SECRET_MASK, masked: true };
    }
    return { ...base, value: maskSecret(value), masked: value !== '' };
  });
}

const unknownKeyError = (key: string) => new AppError(400, ErrorIds.configKeyUnknown, 'config_key_unknown', { key });

/** POST /api/appconfig/admin/reveal: one value in full. */
export async function revealConfigValue({ ctx, actor, key }: { ctx: AppContext; actor: Actor; key: string }): Promise<ConfigEntry> {
  appConfigRules.authorize(actor, 'reveal', null);
  if (!isConfigKey(key)) throw unknownKeyError(key);
  const rows = await storedRows(ctx);
  return { key, value: plainValue(ctx, key, rows.get(key)) };
}

/**
 * PUT /api/appconfig: validates every change first, then writes them in one transaction. A secret whose
 * value is still the masked form is left as stored, so the form can be saved without revealing it.
 * Returns the keys whose stored value was written.
 */
export async function updateConfig(options: { ctx: AppContext; actor: Actor; changes: ConfigEntry[] }): Promise<string[]> {
  const { ctx, actor, changes } = options;
  appConfigRules.authorize(actor, 'edit', null);
  const problem = configChangeProblem(changes);
  if (problem) {
    const errorId = problem.messageKey === 'config_key_unknown' ? ErrorIds.configKeyUnknown : ErrorIds.configValueInvalid;
    throw new AppError(400, errorId, problem.messageKey, { key: problem.key });
  }
  // Later entries for the same key win, as if applied in order.
  const latest = new Map<ConfigKey, string>();
  for (const { key, value } of changes) {
    if (!isConfigKey(key)) continue;
    if (defOf(key).kind === 'secret' && isMaskedSecret(value)) latest.delete(key);
    else latest.set(key, value);
  }
  const now = new Date();
  await ctx.db.transaction(async (tx) => {
    for (const [key, value] of latest) {
      const sealed = defOf(key).kind === 'secret' && value !== '';
      const stored = { value: sealed ? encryptSecret(ctx.env.APP_SECRET, value) : value, encrypted: sealed };
      await tx
        .insert(appConfig)
        .values({ key, ...stored, updatedAt: now, updatedByUserId: actor.user.userId })
        .onConflictDoUpdate({ target: appConfig.key, set: { ...stored, updatedAt: now, updatedByUserId: actor.user.userId } });
    }
  });
  // The AI provider and Stripe settings (openai_secret_key, stripe_*) and the feature switches are reused
  // for a few seconds; committed, so drop them now.
  providerSettingsChanged(ctx);
  featureSwitchesChanged(ctx);
  stripeSettingsChanged(ctx);
  return [...latest.keys()];
}
