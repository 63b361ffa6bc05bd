// createAiService: the AiService of platform/ai/types.ts over the official SDKs (DESIGN.md §2):
// OpenAI, Anthropic, xAI and OpenAI-compatible servers, or the offline demo model when none is configured.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { AppContext } from '../../context';
import { streamAnthropicChat } from './anthropic-chat';
import { guessProvider, offeredModels, resolveModel } from './models';
import { streamOpenAiChat } from './openai-chat';
import { availabilityOf, providerSettings, type ProviderEndpoint, type ProviderSettings } from './settings';
import { ProviderError, type AiService, type DemoModel, type ChatModelInfo, type ChatStreamEvent, type ChatStreamRequest, type ProviderCredentials, type ProviderName } from './types';

/** Clients are reused while a provider's key and URL stay the same (keys can change at runtime). */
class ClientCache<T> {
  private readonly clients = new Map<string, T>();
  constructor(private readonly create: (endpoint: ProviderEndpoint) => T) {}
  get(endpoint: ProviderEndpoint): T {
    const key = `${endpoint.baseURL ?? ''}\n${endpoint.apiKey}`;
    let client = this.clients.get(key);
    if (!client) {
      // Old keys are dropped rather than kept for the life of the process (organizations bring their own).
      if (this.clients.size >= 64) this.clients.clear();
      client = this.create(endpoint);
      this.clients.set(key, client);
    }
    return client;
  }
}

/** A model is offered only when its provider is configured, so this finds one for every offered model. */
function endpointOf(settings: ProviderSettings, provider: 'openai' | 'anthropic' | 'xai' | 'compat'): ProviderEndpoint {
  const endpoint = settings[provider];
  if (!endpoint) throw new ProviderError(provider, 503, 'no_provider_configured', 'This AI provider is not configured on this server.');
  return endpoint;
}

/**
 * The operator's settings with a scope's own keys: an organization's OpenAI key replaces the operator's
 * (same base URL), and makes OpenAI's models available even where the operator has no key.
 */
export function withCredentials(settings: ProviderSettings, credentials: ProviderCredentials | undefined): ProviderSettings {
  if (!credentials) return settings;
  return { ...settings, openai: { apiKey: credentials.openaiApiKey, baseURL: settings.openai?.baseURL ?? settings.openaiBaseURL } };
}

/**
 * `demo` serves the offline demo model (server/src/demo/ai.ts starts the OpenAI emulator on first use); boot.ts
 * passes it in, so that nothing here depends on the emulators.
 */
export async function createAiService(ctx: AppContext, demo: DemoModel): Promise<AiService & { close(): Promise<void> }> {
  const openAiClients = new ClientCache((e) => new OpenAI({ apiKey: e.apiKey, baseURL: e.baseURL, maxRetries: 0 }));
  const anthropicClients = new ClientCache((e) => new Anthropic({ apiKey: e.apiKey, baseURL: e.baseURL, maxRetries: 0 }));

  const current = async (credentials?: ProviderCredentials): Promise<{ settings: ProviderSettings; models: ChatModelInfo[] }> => {
    const settings = withCredentials(await providerSettings(ctx), credentials);
    return { settings, models: offeredModels(availabilityOf(settings)) };
  };

  const openAiStream = (endpoint: ProviderEndpoint, provider: ProviderName, model: string, request: ChatStreamRequest) =>
    streamOpenAiChat(openAiClients.get(endpoint), provider, model, request);

  async function* stream(request: ChatStreamRequest): AsyncGenerator<ChatStreamEvent> {
    const { settings, models } = await current(request.credentials);
    const model = resolveModel(models, request.model);
    if (!model) {
      throw new ProviderError(guessProvider(request.model), 503, 'no_provider_configured', 'No AI provider is configured on this server.');
    }
    switch (model.provider) {
      case 'openai':
      case 'xai':
      case 'compat':
        return yield* openAiStream(endpointOf(settings, model.provider), model.provider, model.id, request);
      case 'anthropic':
        return yield* streamAnthropicChat(anthropicClients.get(endpointOf(settings, 'anthropic')), model.id, request);
      case 'demo':
        return yield* openAiStream({ apiKey: 'demo', baseURL: await demo.url() }, 'demo', model.id, request);
    }
  }

  return {
    async listModels(credentials) {
      return (await current(credentials)).models;
    },
    stream,
    async providerOf(model) {
      const { models } = await current();
      return resolveModel(models, model)?.provider ?? guessProvider(model);
    },
    close: () => demo.close(),
  };
}
