// Every SDK failure becomes a ProviderError(provider, status, code, message) (DESIGN.md §4), except an
// abort we asked for, which surfaces as the signal's reason.
import {
  APIConnectionError as AnthropicConnectionError,
  APIConnectionTimeoutError as AnthropicTimeoutError,
  APIError as AnthropicApiError,
  APIUserAbortError as AnthropicAbortError,
} from '@anthropic-ai/sdk';
import {
  APIConnectionError as OpenAiConnectionError,
  APIConnectionTimeoutError as OpenAiTimeoutError,
  APIError as OpenAiApiError,
  APIUserAbortError as OpenAiAbortError,
} from 'openai';
import { ProviderError, type ProviderName } from './types';

export const CONNECTION_LOST = 'The connection to the AI provider was lost before the answer was complete.';

/** Tries of a request that fails to connect (see failedToConnect); any other failure is not retried. */
export const CONNECT_ATTEMPTS = 2;

/**
 * The request got no answer at all: refused, or reset before any response. Typically a kept-alive
 * socket the provider closed while the event loop was busy (bench/chat-first-token.mjs at 100 streams
 * failed answers this way). Nothing was streamed, so sending it again cannot repeat text; status errors
 * and drops after the answer started are never retried.
 */
export function failedToConnect(error: unknown): boolean {
  return (
    (error instanceof OpenAiConnectionError && !(error instanceof OpenAiTimeoutError)) ||
    (error instanceof AnthropicConnectionError && !(error instanceof AnthropicTimeoutError))
  );
}

/** The error to throw once `signal` is aborted. */
export function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The generation was aborted.', 'AbortError');
}

export function toProviderError(provider: ProviderName, error: unknown, signal?: AbortSignal): Error {
  if (signal?.aborted) return abortReason(signal);
  if (error instanceof ProviderError) return error;
  if (error instanceof OpenAiAbortError || error instanceof AnthropicAbortError) {
    return new DOMException('The generation was aborted.', 'AbortError');
  }
  if (error instanceof OpenAiTimeoutError || error instanceof AnthropicTimeoutError) {
    return new ProviderError(provider, 504, 'timeout', 'The AI provider did not answer in time.');
  }
  if (error instanceof OpenAiApiError) {
    // No status: a connection failure, or an error frame sent after the 200 header (mid-stream).
    if (error.status === undefined && error.error === undefined) return new ProviderError(provider, 500, 'connection_error', CONNECTION_LOST);
    const body = (error.error ?? {}) as { message?: unknown };
    const message = typeof body.message === 'string' && body.message ? body.message : error.message;
    return new ProviderError(provider, error.status ?? 500, error.code ?? error.type ?? null, message);
  }
  if (error instanceof AnthropicApiError) {
    if (error.status === undefined && error.error === undefined) return new ProviderError(provider, 500, 'connection_error', CONNECTION_LOST);
    return new ProviderError(provider, error.status ?? 500, error.errorCode ?? error.type ?? null, error.apiMessage ?? error.message);
  }
  // undici's "terminated" / "other side closed" when the socket drops mid-body.
  return new ProviderError(provider, 500, 'connection_error', CONNECTION_LOST);
}
