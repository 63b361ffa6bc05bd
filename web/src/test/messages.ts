// Chat message fixtures as the messages API returns them, for the chat screen and chat-state tests.
import type { Conversation } from '@pluma/common/conversations';
import type { Message, MessagePage } from '@pluma/common/messages-api';

/**
 * The abilities the server presents for a message in this state (server/src/features/messages/policy.ts
 * stateAllows), so a fixture's actions follow its status unless a test sets them.
 */
export function abilitiesFor(message: Pick<Message, 'role' | 'status' | 'content' | 'finish_reason'>): Message['abilities'] {
  const answer = message.role === 'assistant';
  const active = message.status === 'pending' || message.status === 'streaming';
  return {
    edit: !active,
    favorite: true,
    delete: true,
    share: !active && !!message.content?.trim(),
    // Cut off, stopped by the user with some text (issue 30 item 1), or interrupted with some text.
    continue:
      answer &&
      ((message.status === 'done' && (message.finish_reason === 'length' || (message.finish_reason === 'stopped' && !!message.content))) ||
        (message.status === 'interrupted' && !!message.content)),
    retry: answer && (message.status === 'failed' || message.status === 'interrupted'),
    regenerate: answer && message.status === 'done',
  };
}

/** A finished assistant message; tests override what they are about. */
export function buildMessage(overrides: Partial<Message> & Pick<Message, 'message_id' | 'conversation_id'>): Message {
  const message: Omit<Message, 'abilities'> = {
    role: 'assistant',
    content: 'text',
    prompt: null,
    model: null,
    favorite: false,
    finish_reason: 'stop',
    status: 'done',
    error_code: null,
    message_type_id: 1,
    user_message_id: null,
    avatar_id: null,
    organization_id: null,
    isThread: false,
    deleteUserMsg: false,
    saveOnConversation: true,
    words_charged: null,
    citations: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
  return { ...message, abilities: overrides.abilities ?? abilitiesFor(message) };
}

/** One page of the history, given oldest first; the API sends the newest first. */
export function buildMessagePage(messages: Message[], next_cursor: number | null = null): MessagePage {
  return { messages: [...messages].reverse(), next_cursor };
}

/** A Personal conversation (id 9); tests override what they are about. */
export function buildConversation(overrides: Partial<Conversation> = {}): Conversation {
  return {
    conversation_id: 9,
    name: 'Garden notes',
    model: null,
    archived: false,
    tags: '',
    avatar_id: null,
    organization_id: null,
    file: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    abilities: { read: true, update: true, delete: true, chat: true },
    ...overrides,
  };
}
