// Chat streaming over the OpenAI Chat Completions protocol: OpenAI, xAI (Grok), OpenAI-compatible
// servers (Ollama, vLLM, LM Studio) and the offline demo emulator, all through the official SDK (which sends
// the request; the streamed body is read here, sse-events.ts).
import OpenAI from 'openai';
import { abortReason, CONNECT_ATTEMPTS, CONNECTION_LOST, failedToConnect, toProviderError } from './provider-error';
import { SseParser, type SseEvent } from './sse-events';
import { modelText } from './model-text';
import { ProviderError, type ChatStreamEvent, type ChatStreamRequest, type ChatTurn, type ProviderName } from './types';

/**
 * One turn in the Chat Completions shape: a user turn with images becomes text and image_url parts (data URLs,
 * issue 27 item 2); other attachments (PDF documents, Claude's) are not part of this protocol and are left out.
 */
function openAiMessage(turn: ChatTurn): OpenAI.ChatCompletionMessageParam {
  const images = turn.role === 'user' ? (turn.attachments ?? []).filter((a) => a.mediaType.startsWith('image/')) : [];
  if (images.length === 0) return { role: turn.role, content: turn.content } as OpenAI.ChatCompletionMessageParam;
  return {
    role: 'user',
    content: [{ type: 'text', text: turn.content }, ...images.map((a) => ({ type: 'image_url' as const, image_url: { url: `data:${a.mediaType};base64,${a.data}` } }))],
  };
}

export async function* streamOpenAiChat(
  client: OpenAI,
  provider: ProviderName,
  model: string,
  request: Omit<ChatStreamRequest, 'model'>,
): AsyncGenerator<ChatStreamEvent> {
  const { signal } = request;
  if (signal?.aborted) throw abortReason(signal);
  // OpenAI's own API wants max_completion_tokens (max_tokens is deprecated there); xAI and local
  // servers still read max_tokens.
  const limit = request.maxTokens == null ? {} : provider === 'openai' ? { max_completion_tokens: request.maxTokens } : { max_tokens: request.maxTokens };
  let response: Response;
  for (let attempt = 1; ; attempt++) {
    try {
      // The response, not the SDK's stream: its body is read here (sse-events.ts). The SDK still sends the
      // request and turns an error status into its APIError.
      response = await client.chat.completions
        .create(
          {
            model,
            messages: request.messages.map(openAiMessage),
            stream: true,
            stream_options: { include_usage: true },
            ...limit,
          },
          // A retried stream could repeat text already shown; failures go straight to the caller, except
          // a request that never connected (nothing was answered yet).
          { signal, maxRetries: 0 },
        )
        .asResponse();
      break;
    } catch (error) {
      if (attempt < CONNECT_ATTEMPTS && failedToConnect(error) && !signal?.aborted) continue;
      throw toProviderError(provider, error, signal);
    }
  }

  let finishReason: string | null = null;
  let usage: { inputTokens: number; outputTokens: number } | null = null;
  const reader = response.body?.getReader();
  if (!reader) throw new ProviderError(provider, 500, 'connection_error', CONNECTION_LOST);
  const decoder = new TextDecoder();
  const parser = new SseParser();
  let finished = false;
  /** One event's chunk: null once the data is done ([DONE]); an `{ error }` payload is thrown as the SDK does. */
  const chunkOf = (sse: SseEvent): OpenAI.ChatCompletionChunk | null => {
    if (sse.data.startsWith('[DONE]')) return null;
    const data = JSON.parse(sse.data) as OpenAI.ChatCompletionChunk & { error?: unknown };
    if (data?.error) throw new OpenAI.APIError(undefined, data.error as object, undefined, response.headers);
    return data;
  };
  try {
    while (!finished) {
      let events: SseEvent[];
      try {
        const { value, done } = await reader.read();
        events = done ? parser.end() : parser.push(decoder.decode(value, { stream: true }));
        if (done) finished = true;
        for (const sse of events) {
          // Assistants' `thread.*` events are not chunks of a chat answer.
          if (sse.event?.startsWith('thread.')) continue;
          const chunk = chunkOf(sse);
          if (chunk === null) {
            finished = true;
            break;
          }
          const choice = chunk.choices?.[0];
          const text = choice?.delta?.content ? modelText(choice.delta.content) : '';
          if (text) yield { type: 'delta', text };
          if (choice?.finish_reason) finishReason = choice.finish_reason;
          if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
        }
      } catch (error) {
        if (signal?.aborted) break;
        throw toProviderError(provider, error, signal);
      }
    }
  } finally {
    // Ended early (the caller's break/return, an error, [DONE] before the body's end): the request is cancelled.
    reader.cancel().catch(() => undefined);
  }
  // The SDK ends quietly when aborted; and a body that just stops has no finish_reason.
  if (signal?.aborted) throw abortReason(signal);
  if (finishReason === null) throw new ProviderError(provider, 500, 'connection_error', CONNECTION_LOST);
  yield { type: 'done', finishReason, usage };
}
