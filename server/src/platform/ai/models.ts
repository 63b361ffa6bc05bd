// The model catalog (spec part 2 §9) and how a requested model resolves to an offered one.
import type { ChatModelInfo, ProviderName } from './types';

/** Model ids stored on conversations/messages. */
export const MODEL_IDS = {
  gpt: 'gpt-4o-mini',
  grok: 'grok-2-latest',
  // The spec leaves the Claude id open ("{token}"); claude-3-5-sonnet-latest is retired and the SDK flags
  // claude-sonnet-4-5 as deprecated, so we offer the current Sonnet under the spec's label 'Claude'.
  claude: 'claude-sonnet-4-6',
  demo: 'demo',
} as const;

export const DEMO_MODEL: ChatModelInfo = { id: MODEL_IDS.demo, label: 'Demo (offline)', provider: 'demo', isDefault: true };

/** Which providers can be used right now; a model is offered only when its provider is configured. */
export interface ProviderAvailability {
  openai: boolean;
  anthropic: boolean;
  xai: boolean;
  /** Model names served by the OpenAI-compatible server (empty when none is configured). */
  compatModels: string[];
  demo: boolean;
  /**
   * The admin's default model (app configuration `openai_model`, spec part 1 §3). It wins over the built-in
   * default when offered; a name the catalog does not know is offered as an OpenAI model when OpenAI is.
   */
  preferredModel?: string;
}

export function offeredModels(available: ProviderAvailability): ChatModelInfo[] {
  const models: Omit<ChatModelInfo, 'isDefault'>[] = [];
  if (available.openai) models.push({ id: MODEL_IDS.gpt, label: 'GPT 4o Mini', provider: 'openai' });
  const preferred = available.preferredModel?.trim() || null;
  const known = (id: string) => (Object.values(MODEL_IDS) as string[]).includes(id) || available.compatModels.includes(id);
  if (available.openai && preferred && !known(preferred)) models.push({ id: preferred, label: preferred, provider: 'openai' });
  if (available.xai) models.push({ id: MODEL_IDS.grok, label: 'Grok', provider: 'xai' });
  if (available.anthropic) models.push({ id: MODEL_IDS.claude, label: 'Claude', provider: 'anthropic' });
  for (const id of available.compatModels) {
    // A compatible server may name a model like a built-in one; the built-in keeps the id.
    if (!models.some((m) => m.id === id)) models.push({ id, label: id, provider: 'compat' });
  }
  if (models.length === 0) return available.demo ? [DEMO_MODEL] : [];
  // The admin's openai_model when offered; else spec part 2 §9: GPT 4o Mini, and without an OpenAI key the first offered model.
  const offered = (id: string | null) => id !== null && models.some((m) => m.id === id);
  const defaultId = offered(preferred) ? (preferred as string) : offered(MODEL_IDS.gpt) ? MODEL_IDS.gpt : models[0].id;
  return models.map((m) => ({ ...m, isDefault: m.id === defaultId }));
}

/** The offered model a request runs on: the one asked for, else the default. Null when nothing is offered. */
export function resolveModel(models: ChatModelInfo[], requested: string | null): ChatModelInfo | null {
  return models.find((m) => m.id === requested) ?? models.find((m) => m.isDefault) ?? models[0] ?? null;
}

/** A best guess of a model's provider from its name, for when no provider is configured at all. */
export function guessProvider(model: string | null): ProviderName {
  if (model?.startsWith('claude')) return 'anthropic';
  if (model?.startsWith('grok')) return 'xai';
  if (model === MODEL_IDS.demo) return 'demo';
  return 'openai';
}
