import type { MessageStreamEndPayload, MessageStreamPayload, WebSearchPayload } from '@pluma/common/events';
import type { Message } from '@pluma/common/messages-api';
import { describe, expect, it } from 'vitest';
import { abilitiesFor, buildMessage, buildMessagePage as page } from '../../test/messages';
import { chatReducer, hasSnapshotInProgress, initialChatState, isGenerating, isUsefulChunk, type ChatState } from './chat-state';

const CONVERSATION = 5;

const message = (overrides: Partial<Message> & Pick<Message, 'message_id'>) => buildMessage({ conversation_id: CONVERSATION, content: 'done text', ...overrides });
const delta = (message_id: number, content: string, conversation_id = CONVERSATION): MessageStreamPayload => ({ message_id, conversation_id, content, stream: true, isThread: false });
const end = (final: Message): MessageStreamEndPayload => ({
  message_id: final.message_id,
  conversation_id: final.conversation_id,
  content: final.content ?? '',
  finish_reason: final.finish_reason,
  stream: true,
  isThread: false,
  message: final,
});

/** A conversation where the user just sent a prompt and the answer (id 2) is pending. */
function sentState(): ChatState {
  let state = chatReducer(initialChatState(CONVERSATION), { type: 'latestPage', page: page([]) });
  state = chatReducer(state, {
    type: 'sent',
    response: {
      user_message: message({ message_id: 1, role: 'user', content: 'Hello', finish_reason: null }),
      assistant_message: message({ message_id: 2, content: null, status: 'pending', finish_reason: null }),
    },
  });
  return state;
}

const contentOf = (state: ChatState, id: number) => state.messages.find((m) => m.message_id === id)?.content;

describe('stream chunks', () => {
  it('appends deltas to the answer being written', () => {
    let state = sentState();
    expect(isGenerating(state)).toBe(true);
    state = chatReducer(state, { type: 'delta', payload: delta(2, 'Hel') });
    state = chatReducer(state, { type: 'delta', payload: delta(2, 'lo ') });
    state = chatReducer(state, { type: 'delta', payload: delta(2, 'world') });
    expect(contentOf(state, 2)).toBe('Hello world');
    expect(state.messages.find((m) => m.message_id === 2)?.status).toBe('streaming');
  });

  it('ignores empty chunks and chunks containing "undefined" (spec part 2 §4)', () => {
    let state = sentState();
    state = chatReducer(state, { type: 'delta', payload: delta(2, 'A') });
    const before = state;
    state = chatReducer(state, { type: 'delta', payload: delta(2, '') });
    state = chatReducer(state, { type: 'delta', payload: delta(2, 'undefined') });
    state = chatReducer(state, { type: 'delta', payload: delta(2, 'x undefined y') });
    expect(state).toBe(before);
    expect(contentOf(state, 2)).toBe('A');
    expect(isUsefulChunk('B')).toBe(true);
    expect(isUsefulChunk('')).toBe(false);
    expect(isUsefulChunk(undefined)).toBe(false);
  });

  it('ignores frames of other conversations', () => {
    const state = sentState();
    expect(chatReducer(state, { type: 'delta', payload: delta(2, 'other', 99) })).toBe(state);
  });

  it('replaces the streamed text with the final content on message_stream_end', () => {
    let state = sentState();
    state = chatReducer(state, { type: 'delta', payload: delta(2, 'partial garbled') });
    state = chatReducer(state, { type: 'streamEnd', payload: end(message({ message_id: 2, content: 'The final answer.' })) });
    expect(contentOf(state, 2)).toBe('The final answer.');
    expect(isGenerating(state)).toBe(false);
    // A late frame cannot reopen a finished answer.
    expect(chatReducer(state, { type: 'delta', payload: delta(2, ' more') })).toBe(state);
  });

  it('drops the prompt of an answer sent with deleteUserMsg once it is done (the server removed it)', () => {
    let state = sentState();
    state = chatReducer(state, { type: 'streamEnd', payload: end(message({ message_id: 2, content: 'Done.', user_message_id: 1, deleteUserMsg: true })) });
    expect(state.messages.map((m) => m.message_id)).toEqual([2]);
    // Without it, the prompt stays.
    state = chatReducer(sentState(), { type: 'streamEnd', payload: end(message({ message_id: 2, content: 'Done.', user_message_id: 1 })) });
    expect(state.messages.map((m) => m.message_id)).toEqual([1, 2]);
  });

  it('keeps the partial text and marks the answer failed on a provider error', () => {
    let state = sentState();
    state = chatReducer(state, { type: 'delta', payload: delta(2, 'Half an ans') });
    state = chatReducer(state, {
      type: 'providerError',
      text: 'OpenAi Error: Rate limit',
      payload: { status: 429, message: 'Rate limit', code: 'rate_limit_exceeded', provider: 'openai', message_id: 2, conversation_id: CONVERSATION },
    });
    const failed = state.messages.find((m) => m.message_id === 2);
    expect(failed).toMatchObject({ content: 'Half an ans', status: 'failed', finish_reason: 'error', error_code: 'rate_limit_exceeded', errorText: 'OpenAi Error: Rate limit' });
    expect(isGenerating(state)).toBe(false);
    // What the server allows on a failed answer (its copy is not sent with the error event).
    expect(failed?.abilities).toEqual(abilitiesFor({ role: 'assistant', status: 'failed', content: 'Half an ans', finish_reason: 'error' }));
  });

  it('gives an answer first seen as a frame the abilities of one being written', () => {
    let state = chatReducer(initialChatState(CONVERSATION), { type: 'latestPage', page: page([]) });
    state = chatReducer(state, { type: 'delta', payload: delta(7, 'Hi') });
    expect(state.messages[0].abilities).toEqual(abilitiesFor({ role: 'assistant', status: 'streaming', content: 'Hi', finish_reason: null }));
  });

  it('keeps deltas that arrive before the POST answers', () => {
    let state = chatReducer(initialChatState(CONVERSATION), { type: 'latestPage', page: page([]) });
    state = chatReducer(state, { type: 'delta', payload: delta(2, 'Early ') });
    state = chatReducer(state, { type: 'delta', payload: delta(2, 'words') });
    state = chatReducer(state, {
      type: 'sent',
      response: {
        user_message: message({ message_id: 1, role: 'user', content: 'Hi', finish_reason: null }),
        assistant_message: message({ message_id: 2, content: null, status: 'pending', finish_reason: null, prompt: 'Hi' }),
      },
    });
    expect(state.messages.map((m) => m.message_id)).toEqual([1, 2]);
    expect(state.messages[1]).toMatchObject({ content: 'Early words', status: 'streaming', prompt: 'Hi', tracking: 'live' });
  });
});

describe('history and reloads', () => {
  it('orders pages oldest first and prepends older pages', () => {
    let state = chatReducer(initialChatState(CONVERSATION), { type: 'latestPage', page: page([message({ message_id: 30 }), message({ message_id: 31 })], 30) });
    expect(state.olderCursor).toBe(30);
    state = chatReducer(state, { type: 'olderPage', page: page([message({ message_id: 10 }), message({ message_id: 11 })], null) });
    expect(state.messages.map((m) => m.message_id)).toEqual([10, 11, 30, 31]);
    expect(state.olderCursor).toBeNull();
  });

  it('a reload mid-stream shows the saved text, ignores deltas it cannot join, and takes the final answer', () => {
    const saved = message({ message_id: 2, content: 'Saved so far', status: 'streaming', finish_reason: null });
    let state = chatReducer(initialChatState(CONVERSATION), { type: 'latestPage', page: page([saved]) });
    expect(contentOf(state, 2)).toBe('Saved so far');
    expect(hasSnapshotInProgress(state)).toBe(true);
    state = chatReducer(state, { type: 'delta', payload: delta(2, ' frame after a gap') });
    expect(contentOf(state, 2)).toBe('Saved so far');
    // A poll brings the newer saved text.
    state = chatReducer(state, { type: 'latestPage', page: page([{ ...saved, content: 'Saved so far and more' }]) });
    expect(contentOf(state, 2)).toBe('Saved so far and more');
    state = chatReducer(state, { type: 'streamEnd', payload: end(message({ message_id: 2, content: 'Saved so far and more, finished.' })) });
    expect(contentOf(state, 2)).toBe('Saved so far and more, finished.');
    expect(hasSnapshotInProgress(state)).toBe(false);
  });

  it('a poll does not overwrite a live answer that is ahead of the saved copy, but takes a final one', () => {
    let state = sentState();
    state = chatReducer(state, { type: 'delta', payload: delta(2, 'Live text ahead') });
    const live = state;
    state = chatReducer(state, { type: 'latestPage', page: page([message({ message_id: 2, content: 'Live', status: 'streaming', finish_reason: null })]) });
    expect(state.messages).toBe(live.messages);
    state = chatReducer(state, { type: 'latestPage', page: page([message({ message_id: 2, content: 'Live text ahead, done.', status: 'done' })]) });
    expect(contentOf(state, 2)).toBe('Live text ahead, done.');
  });

  it('after lost frames, live answers are refreshed from the server', () => {
    let state = sentState();
    state = chatReducer(state, { type: 'delta', payload: delta(2, 'Some') });
    state = chatReducer(state, { type: 'framesLost' });
    expect(hasSnapshotInProgress(state)).toBe(true);
    state = chatReducer(state, { type: 'latestPage', page: page([message({ message_id: 2, content: 'Some text saved', status: 'streaming', finish_reason: null })]) });
    expect(contentOf(state, 2)).toBe('Some text saved');
  });

  it('unchanged messages keep their identity (memoized rows do not re-render)', () => {
    let state = chatReducer(initialChatState(CONVERSATION), { type: 'latestPage', page: page([message({ message_id: 1 }), message({ message_id: 2, content: '', status: 'streaming', finish_reason: null })]) });
    state = chatReducer(state, { type: 'framesLost' });
    const first = state.messages[0];
    state = chatReducer(state, { type: 'latestPage', page: page([message({ message_id: 1 }), message({ message_id: 2, content: 'more', status: 'streaming', finish_reason: null })]) });
    expect(state.messages[0]).toBe(first);
  });
});

describe('continue', () => {
  it('appends the continuation to the text the answer already has', () => {
    const cut = message({ message_id: 2, content: 'First part', finish_reason: 'length' });
    let state = chatReducer(initialChatState(CONVERSATION), { type: 'latestPage', page: page([cut]) });
    state = chatReducer(state, { type: 'continueStarted', messageId: 2 });
    expect(isGenerating(state)).toBe(true);
    // Being written again: no Continue, Edit or Share until it ends.
    expect(state.messages[0].abilities).toEqual(abilitiesFor({ ...cut, status: 'pending', finish_reason: null }));
    state = chatReducer(state, { type: 'delta', payload: delta(2, ' and more') });
    // The POST answers with the claimed row (old text): the deltas already shown stay.
    state = chatReducer(state, { type: 'sent', response: { user_message: null, assistant_message: { ...cut, status: 'pending', finish_reason: null } } });
    expect(contentOf(state, 2)).toBe('First part and more');
    state = chatReducer(state, { type: 'streamEnd', payload: end(message({ message_id: 2, content: 'First part and more.', finish_reason: 'stop' })) });
    expect(state.messages[0]).toMatchObject({ content: 'First part and more.', finish_reason: 'stop', status: 'done' });
  });

  it('a refused continue restores the message', () => {
    const cut = message({ message_id: 2, content: 'First part', finish_reason: 'length' });
    let state = chatReducer(initialChatState(CONVERSATION), { type: 'latestPage', page: page([cut]) });
    state = chatReducer(state, { type: 'continueStarted', messageId: 2 });
    state = chatReducer(state, { type: 'replaced', message: cut });
    expect(state.messages[0]).toMatchObject({ status: 'done', finish_reason: 'length' });
    expect(isGenerating(state)).toBe(false);
  });
});

describe('web search steps (issue 32)', () => {
  const step = (payload: Partial<WebSearchPayload> & Pick<WebSearchPayload, 'step'>, early?: boolean) =>
    ({ type: 'webSearch', payload: { message_id: 2, conversation_id: CONVERSATION, ...payload }, early }) as const;
  const answer = (state: ChatState) => state.messages.find((m) => m.message_id === 2);
  const SOURCE = { n: 1, title: 'Ferns', url: 'https://ferns.example/', site: 'ferns.example', snippet: 'Ferns…' };

  it('shows each step, then the sources; the step assumed at send never hides a later one', () => {
    let state = chatReducer(sentState(), step({ step: 'searching' }, true));
    expect(answer(state)?.webStep).toEqual({ step: 'searching', count: undefined });
    state = chatReducer(state, step({ step: 'reading', count: 4 }));
    expect(answer(state)?.webStep).toEqual({ step: 'reading', count: 4 });
    expect(chatReducer(state, step({ step: 'searching' }, true))).toBe(state);
    state = chatReducer(state, step({ step: 'done', sources: [SOURCE] }));
    expect(answer(state)).toMatchObject({ webStep: undefined, sources: [SOURCE] });
    expect(chatReducer(state, step({ step: 'searching' }, true))).toBe(state);
  });

  it('a failed search leaves a notice and no sources; steps of unknown answers are ignored', () => {
    const state = chatReducer(chatReducer(sentState(), step({ step: 'searching' })), step({ step: 'failed' }));
    expect(answer(state)).toMatchObject({ webStep: undefined, sources: [], web_search_failed: true });
    const other = sentState();
    expect(chatReducer(other, { type: 'webSearch', payload: { message_id: 99, conversation_id: CONVERSATION, step: 'reading', count: 2 } })).toBe(other);
  });
});
