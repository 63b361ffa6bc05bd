// GET /api/models: the chat models this server offers now (spec part 2 §9), for the model picker.
import { z } from 'zod';

export const providerNames = ['openai', 'anthropic', 'xai', 'compat', 'demo'] as const;

export const chatModel = z.object({
  /** Value stored on conversations and messages, e.g. 'gpt-4o-mini'. */
  id: z.string(),
  /** Picker label, e.g. 'GPT 4o Mini', 'Claude', 'Grok', 'Demo (offline)'. */
  label: z.string(),
  provider: z.enum(providerNames),
  /** The model a conversation with an unset model uses. */
  isDefault: z.boolean(),
});
export type ChatModel = z.infer<typeof chatModel>;

export const modelListResponse = z.array(chatModel);

// In a module without zod: the chat's attachment chips need it at once, not the schemas (issue 31 item 5).
export { modelAcceptsImages } from './rules/model-images';
