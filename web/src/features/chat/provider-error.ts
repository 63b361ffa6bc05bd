// What the user reads when the AI provider fails mid-answer (spec part 2 §8 "Socket openai-error").
import { SocketEvents, type ProviderErrorPayload } from '@pluma/common/events';

export type ProviderErrorEvent = typeof SocketEvents.openaiError | typeof SocketEvents.anthropicError;

type Translate = (key: string) => string;

/**
 * Status 500: the localized "Sorry, OpenAI/Claude is having problems with your request."; otherwise
 * 'OpenAi Error: ' or 'Anthropic Error: ' plus the provider's message.
 */
export function providerErrorText(event: ProviderErrorEvent, payload: Pick<ProviderErrorPayload, 'status' | 'message'>, t: Translate): string {
  const anthropic = event === SocketEvents.anthropicError;
  if (payload.status === 500) return t(anthropic ? 'errors.claudeTrouble' : 'errors.openAiTrouble');
  return `${t(anthropic ? 'errors.anthropicPrefix' : 'errors.openAiPrefix')}${payload.message}`;
}
