// Chat streaming over Anthropic's Messages protocol with the official SDK.
import Anthropic from '@anthropic-ai/sdk';
import { abortReason, CONNECT_ATTEMPTS, CONNECTION_LOST, failedToConnect, toProviderError } from './provider-error';
import { modelText } from './model-text';
import { ProviderError, type ChatAttachment, type ChatStreamEvent, type ChatStreamRequest, type ChatTurn } from './types';

/** Anthropic requires max_tokens; this leaves room for long drafts. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;

/** Our stop reasons are OpenAI's vocabulary (the messages feature offers Continue on 'length'). */
export function finishReasonOf(stopReason: string | null): string | null {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return stopReason;
  }
}

/**
 * System turns go to the `system` parameter; empty turns are dropped (the API rejects them) and
 * consecutive turns of one role are joined, as the API expects alternating roles.
 */
export function toAnthropicMessages(turns: ChatTurn[]): { system: string | undefined; messages: Anthropic.MessageParam[] } {
  const system = turns
    .filter((t) => t.role === 'system' && t.content.trim())
    .map((t) => t.content)
    .join('\n\n');
  const messages: Anthropic.MessageParam[] = [];
  for (const turn of turns) {
    if (turn.role === 'system' || !turn.content.trim()) continue;
    const last = messages.at(-1);
    const files = turn.role === 'user' ? (turn.attachments ?? []) : [];
    if (last && last.role === turn.role) {
      if (files.length === 0 && typeof last.content === 'string') last.content = `${last.content}\n\n${turn.content}`;
      else last.content = [...asBlocks(last.content), ...files.map(attachmentBlock), { type: 'text', text: turn.content }];
    } else if (files.length > 0) {
      // Documents and images before the text, as Anthropic recommends.
      messages.push({ role: 'user', content: [...files.map(attachmentBlock), { type: 'text', text: turn.content }] });
    } else {
      messages.push({ role: turn.role, content: turn.content });
    }
  }
  return { system: system || undefined, messages };
}

const asBlocks = (content: Anthropic.MessageParam['content']): Anthropic.ContentBlockParam[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : content;

/** A PDF as a document block, an image as an image block (base64 sources). */
export function attachmentBlock(file: ChatAttachment): Anthropic.ContentBlockParam {
  if (file.mediaType === 'application/pdf') {
    return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: file.data }, ...(file.title ? { title: file.title } : {}) };
  }
  return { type: 'image', source: { type: 'base64', media_type: file.mediaType, data: file.data } };
}

export async function* streamAnthropicChat(
  client: Anthropic,
  model: string,
  request: Omit<ChatStreamRequest, 'model'>,
): AsyncGenerator<ChatStreamEvent> {
  const { signal } = request;
  if (signal?.aborted) throw abortReason(signal);
  const { system, messages } = toAnthropicMessages(request.messages);
  let stream: AsyncIterable<Anthropic.RawMessageStreamEvent>;
  for (let attempt = 1; ; attempt++) {
    try {
      stream = await client.messages.create(
        { model, max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS, messages, stream: true, ...(system ? { system } : {}) },
        // Only a request that never connected is sent again (nothing was answered yet).
        { signal, maxRetries: 0 },
      );
      break;
    } catch (error) {
      if (attempt < CONNECT_ATTEMPTS && failedToConnect(error) && !signal?.aborted) continue;
      throw toProviderError('anthropic', error, signal);
    }
  }

  let stopReason: string | null = null;
  let stopped = false;
  let inputTokens = 0;
  let outputTokens = 0;
  const iterator = stream[Symbol.asyncIterator]();
  try {
    while (true) {
      let next: IteratorResult<Anthropic.RawMessageStreamEvent>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw toProviderError('anthropic', error, signal);
      }
      if (next.done) break;
      const event = next.value;
      switch (event.type) {
        case 'message_start': {
          const u = event.message.usage;
          inputTokens = u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
          outputTokens = u.output_tokens;
          break;
        }
        case 'content_block_delta':
          if (event.delta.type === 'text_delta' && event.delta.text) {
            const text = modelText(event.delta.text);
            if (text) yield { type: 'delta', text };
          }
          break;
        case 'message_delta':
          stopReason = event.delta.stop_reason ?? stopReason;
          outputTokens = event.usage.output_tokens;
          break;
        case 'message_stop':
          stopped = true;
          break;
      }
    }
  } finally {
    await iterator.return?.();
  }
  if (signal?.aborted) throw abortReason(signal);
  if (!stopped) throw new ProviderError('anthropic', 500, 'connection_error', CONNECTION_LOST);
  yield { type: 'done', finishReason: finishReasonOf(stopReason), usage: { inputTokens, outputTokens } };
}
