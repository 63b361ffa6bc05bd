// The feature switches on the server (spec part 1 §2 "Main navigation tabs": each tab "shown only if its app
// setting is on"; §3 app configuration: avatars_enabled, super_fetch, templates_enabled, documents_enabled,
// hashtags_enabled, topics_enabled, chatwidget_enabled, tutorials_enabled). Hiding a tab is not enough: with
// its switch off a feature does not exist, so its API answers 404 `feature_disabled` — to staff too
// (docs/decisions.md "Feature switches on the server"). A route declares it next to the access gate, first
// (featureGate, feature-gate-routes.ts):
//   signedIn(app, schema, { gates: [featureGate(app, 'templates_enabled'), accessGate(app)] })
// The switches are read for every request, so they are reused for a few seconds like the provider settings
// (platform/ai/settings.ts): saving the app configuration drops them on this node at once
// (appconfig/service.ts updateConfig); other nodes keep theirs until FEATURE_SWITCHES_TTL_MS has passed.
import { CONFIG_KEYS } from '@pluma/common/appconfig';
import { ErrorIds } from '@pluma/common/errors';
import { inArray } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { appConfig } from '../../db/schema';
import { AppError } from '../../platform/http/errors';

/** The app settings that switch a whole feature on or off (organizations_enabled has its own gate: organizations/enabled-gate.ts). */
export const FEATURE_SWITCHES = [
  'avatars_enabled',
  'super_fetch',
  'templates_enabled',
  'documents_enabled',
  'hashtags_enabled',
  'topics_enabled',
  'chatwidget_enabled',
  'tutorials_enabled',
] as const;
export type FeatureSwitch = (typeof FEATURE_SWITCHES)[number];
export type FeatureSwitches = Record<FeatureSwitch, boolean>;

/** How long switches read from the database are reused: the staleness bound of the other nodes. */
export const FEATURE_SWITCHES_TTL_MS = 5_000;

export const featureDisabled = () => new AppError(404, ErrorIds.featureDisabled, 'feature_disabled');

interface CachedSwitches {
  switches: Promise<FeatureSwitches>;
  until: number;
}

// Per app context (tests run several apps in one process). The entry holds the read in flight, so the
// requests that arrive together after expiry share one query.
const cached = new WeakMap<AppContext, CachedSwitches>();

async function readFeatureSwitches(ctx: AppContext): Promise<FeatureSwitches> {
  const rows = await ctx.db.select({ key: appConfig.key, value: appConfig.value }).from(appConfig).where(inArray(appConfig.key, [...FEATURE_SWITCHES]));
  const stored = new Map(rows.map((row) => [row.key, row.value]));
  // Booleans are stored 'true'/'false' (never encrypted); a missing row is the key's default (on).
  return Object.fromEntries(FEATURE_SWITCHES.map((key) => [key, (stored.get(key) ?? CONFIG_KEYS[key].default) === 'true'])) as FeatureSwitches;
}

/** Every feature switch, from the last few seconds' read or, after expiry or a save, a fresh one (one query). */
export function featureSwitches(ctx: AppContext, now: number = Date.now()): Promise<FeatureSwitches> {
  const hit = cached.get(ctx);
  if (hit && hit.until > now) return hit.switches;
  const entry: CachedSwitches = { switches: readFeatureSwitches(ctx), until: now + FEATURE_SWITCHES_TTL_MS };
  cached.set(ctx, entry);
  // A failed read is not reused: the next request tries again.
  entry.switches.catch(() => {
    if (cached.get(ctx) === entry) cached.delete(ctx);
  });
  return entry.switches;
}

/** The app configuration was saved (and committed): the next request reads the switches again. */
export function featureSwitchesChanged(ctx: AppContext): void {
  cached.delete(ctx);
}

/** Refuses (404 feature_disabled) unless at least one of `which` is on. */
export async function requireFeature(ctx: AppContext, which: FeatureSwitch | readonly FeatureSwitch[], now?: number): Promise<void> {
  const switches = await featureSwitches(ctx, now);
  const keys: readonly FeatureSwitch[] = typeof which === 'string' ? [which] : which;
  if (!keys.some((key) => switches[key])) throw featureDisabled();
}
