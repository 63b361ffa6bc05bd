// A NUL character in a model's text never reaches what Pluma shows or saves (model-text.ts): the official SDKs
// read a streamed answer that carries some, served by a fetch of the test's own.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { streamAnthropicChat } from './anthropic-chat';
import { modelText } from './model-text';
import { streamOpenAiChat } from './openai-chat';
import type { ChatStreamEvent } from './types';

/** A fetch that answers every request with these server-sent events. */
const answering = (events: Array<{ event?: string; data: unknown }>) => async () =>
  new Response(events.map((e) => `${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`).join(''), {
    headers: { 'content-type': 'text/event-stream' },
  });

async function textOf(stream: AsyncIterable<ChatStreamEvent>): Promise<string[]> {
  const deltas: string[] = [];
  for await (const event of stream) if (event.type === 'delta') deltas.push(event.text);
  return deltas;
}

const request = { messages: [{ role: 'user' as const, content: 'Say something odd' }], maxTokens: 50 };

describe('a model text with NUL characters', () => {
  it('drops them and keeps the rest', () => {
    expect(modelText('a\u0000b\u0000')).toBe('ab');
    expect(modelText('plain')).toBe('plain');
  });

  it('OpenAI protocol: no delta carries one, and a delta of nothing else is not sent', async () => {
    const chunk = (content: string) => ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] });
    const fetch = answering([
      { data: chunk('Hello\u0000 ') },
      { data: chunk('\u0000') },
      { data: chunk('world') },
      { data: { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] } },
      { data: '[DONE]' },
    ]);
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: 'http://provider.invalid/v1', fetch });
    expect(await textOf(streamOpenAiChat(client, 'openai', 'm', request))).toEqual(['Hello ', 'world']);
  });

  it('Anthropic protocol: the same', async () => {
    const delta = (text: string) => ({ event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } } });
    const fetch = answering([
      { event: 'message_start', data: { type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', model: 'c', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 0 } } } },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
      delta('Hola\u0000 '),
      delta('\u0000\u0000'),
      delta('mundo'),
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } } },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ]);
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: 'http://provider.invalid', fetch });
    expect(await textOf(streamAnthropicChat(client, 'c', request))).toEqual(['Hola ', 'mundo']);
  });
});
