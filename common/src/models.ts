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

/**
 * Whether a model takes images in a prompt (issue 27 item 2): OpenAI's GPT-4o, GPT-4.1, GPT-5 and o-series,
 * every Claude 3 and later, Grok's vision models and Grok 4, and the offline demo. Other models get the
 * image's name only, and the composer says so.
 */
export function modelAcceptsImages(model: { id: string; provider: string }): boolean {
  const id = model.id.toLowerCase();
  switch (model.provider) {
    case 'demo':
    case 'anthropic':
      return true;
    case 'openai':
      return /^(gpt-4o|gpt-4\.1|gpt-5|o\d|chatgpt-4o)/.test(id);
    case 'xai':
      return /vision|grok-4/.test(id);
    default:
      return false;
  }
}
