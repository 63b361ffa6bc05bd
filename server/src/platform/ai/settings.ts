// Provider keys and base URLs. The OpenAI key can be set by an admin at runtime (app configuration
// `openai_secret_key`, encrypted), so settings are read per call: one primary-key lookup.
import type { AppContext } from '../../context';
import { getConfig } from '../../features/appconfig/read';
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
}

const XAI_DEFAULT_BASE_URL = 'https://api.x.ai/v1';
// Ollama and most local servers ignore the key, but the SDK requires one.
const COMPAT_PLACEHOLDER_KEY = 'not-needed';

export async function readProviderSettings(ctx: AppContext): Promise<ProviderSettings> {
  const { env } = ctx;
  // The admin's key wins over the deployment's: it is the one the back office shows and changes.
  const openaiKey = (await getConfig(ctx, 'openai_secret_key')).trim() || env.OPENAI_API_KEY;
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
  };
}

export function availabilityOf(settings: ProviderSettings): ProviderAvailability {
  return {
    openai: settings.openai !== null,
    anthropic: settings.anthropic !== null,
    xai: settings.xai !== null,
    compatModels: settings.compat?.models ?? [],
    demo: settings.demoEnabled,
  };
}
