// Provider keys and base URLs. The OpenAI key can be set by an admin at runtime (app configuration
// `openai_secret_key`, encrypted). Reading it cost a query per answer before the provider call
// (bench/chat-first-token.mjs), so settings are reused for a few seconds: saving the app configuration
// drops them on this node at once (features/appconfig/service.ts); with several nodes behind Redis the
// others keep theirs until PROVIDER_SETTINGS_TTL_MS has passed, which bounds how stale a key can be.
import type { AppContext } from '../../context';
import { getConfig } from '../appconfig/read';
import type { ProviderAvailability } from './models';

export interface ProviderEndpoint {
  apiKey: string;
  /** undefined → the SDK's default (the provider's public API). */
  baseURL: string | undefined;
}

export interface ProviderSettings {
  openai: ProviderEndpoint | null;
  anthropic: ProviderEndpoint | null;
  xai: ProviderEndpoint | null;
  compat: (ProviderEndpoint & { models: string[] }) | null;
  demoEnabled: boolean;
  /** App configuration `openai_model`: the default chat model (models.ts offeredModels). */
  defaultModel: string;
  /** Where OpenAI calls go (OPENAI_BASE_URL), also with an organization's own key when the operator has none. */
  openaiBaseURL: string | undefined;
}

const XAI_DEFAULT_BASE_URL = 'https://api.x.ai/v1';
// Ollama and most local servers ignore the key, but the SDK requires one.
const COMPAT_PLACEHOLDER_KEY = 'not-needed';

/** How long settings read from the database are reused (see above: the staleness bound of other nodes). */
export const PROVIDER_SETTINGS_TTL_MS = 5_000;

interface CachedSettings {
  settings: Promise<ProviderSettings>;
  until: number;
}

// Per app context (tests run several apps in one process). The entry holds the read in flight, so the
// streams that start together after expiry share one query.
const cachedSettings = new WeakMap<AppContext, CachedSettings>();

/** The provider settings, from the last few seconds' read or, after expiry or a save, a fresh one. */
export function providerSettings(ctx: AppContext, now: number = Date.now()): Promise<ProviderSettings> {
  const hit = cachedSettings.get(ctx);
  if (hit && hit.until > now) return hit.settings;
  const entry: CachedSettings = { settings: readProviderSettings(ctx), until: now + PROVIDER_SETTINGS_TTL_MS };
  cachedSettings.set(ctx, entry);
  // A failed read is not reused: the next call tries again.
  entry.settings.catch(() => {
    if (cachedSettings.get(ctx) === entry) cachedSettings.delete(ctx);
  });
  return entry.settings;
}

/**
 * The app configuration was saved: the next call reads the settings again. Called after the save has
 * committed, so that read sees it; a read already in flight keeps serving only the callers that began before.
 */
export function providerSettingsChanged(ctx: AppContext): void {
  cachedSettings.delete(ctx);
}

export async function readProviderSettings(ctx: AppContext): Promise<ProviderSettings> {
  const { env } = ctx;
  // The admin's key wins over the deployment's: it is the one the back office shows and changes.
  const [storedKey, defaultModel] = await Promise.all([getConfig(ctx, 'openai_secret_key'), getConfig(ctx, 'openai_model')]);
  const openaiKey = storedKey.trim() || env.OPENAI_API_KEY;
  const compatModels = (env.OPENAI_COMPAT_MODELS ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  return {
    openai: openaiKey ? { apiKey: openaiKey, baseURL: env.OPENAI_BASE_URL } : null,
    anthropic: env.ANTHROPIC_API_KEY ? { apiKey: env.ANTHROPIC_API_KEY, baseURL: env.ANTHROPIC_BASE_URL } : null,
    xai: env.XAI_API_KEY ? { apiKey: env.XAI_API_KEY, baseURL: env.XAI_BASE_URL ?? XAI_DEFAULT_BASE_URL } : null,
    compat:
      env.OPENAI_COMPAT_BASE_URL && compatModels.length
        ? { apiKey: env.OPENAI_COMPAT_API_KEY ?? COMPAT_PLACEHOLDER_KEY, baseURL: env.OPENAI_COMPAT_BASE_URL, models: compatModels }
        : null,
    demoEnabled: env.DEMO_AI,
    defaultModel: defaultModel.trim(),
    openaiBaseURL: env.OPENAI_BASE_URL,
  };
}

export function availabilityOf(settings: ProviderSettings): ProviderAvailability {
  return {
    openai: settings.openai !== null,
    anthropic: settings.anthropic !== null,
    xai: settings.xai !== null,
    compatModels: settings.compat?.models ?? [],
    demo: settings.demoEnabled,
    preferredModel: settings.defaultModel || undefined,
  };
}
