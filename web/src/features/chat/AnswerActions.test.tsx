// The actions under a message are exactly what its abilities allow (DESIGN.md §7): the server decides.
import type { Message } from '@pluma/common/messages-api';
import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { buildMessage } from '../../test/messages';
import { buildUser, fakeSession, renderScreen } from '../../test/render';
import type { ChatMessage } from './chat-state';
import { MessageItem } from './MessageItem';

beforeAll(async () => {
  await i18n.loadNamespaces(['chat', 'messages']);
});

const NONE: Message['abilities'] = { edit: false, favorite: false, delete: false, share: false, continue: false, retry: false, regenerate: false };

function show(overrides: Partial<Message>, last = true) {
  const message: ChatMessage = { ...buildMessage({ message_id: 2, conversation_id: 9, ...overrides }), tracking: 'live', errorText: null };
  renderScreen(<MessageItem message={message} busy={false} last={last} onSaveEdit={vi.fn()} onToggleFavorite={vi.fn()} onAnswerAgain={vi.fn()} />, {
    session: fakeSession(buildUser()),
  });
  return within(screen.getByTestId('message'));
}

const ACTIONS = ['Continue', 'Retry', 'Regenerate', 'Favorite', 'Edit', 'Share'];
const offered = (row: ReturnType<typeof show>) => ACTIONS.filter((name) => row.queryByRole('button', { name }));

describe('message actions follow the abilities', () => {
  it('offers every allowed action of a finished last answer, and only those', async () => {
    const row = show({ abilities: { ...NONE, favorite: true, edit: true, share: true, regenerate: true } });
    await row.findByRole('button', { name: 'Share' });
    expect(offered(row)).toEqual(['Regenerate', 'Favorite', 'Edit', 'Share']);
  });

  it('offers nothing the server did not allow, whatever the state looks like', () => {
    const row = show({ status: 'failed', finish_reason: 'length', abilities: NONE });
    expect(offered(row)).toEqual([]);
    // Copy is the browser's own action, not the server's.
    expect(row.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
  });

  it('offers Continue and Retry on an interrupted answer as allowed', () => {
    expect(offered(show({ status: 'interrupted', content: 'Half', abilities: { ...NONE, continue: true, retry: true } }))).toEqual(['Continue', 'Retry']);
  });

  it('offers Retry without Continue on a failed answer', () => {
    expect(offered(show({ status: 'failed', content: '', abilities: { ...NONE, retry: true, edit: true } }))).toEqual(['Retry', 'Edit']);
  });

  it('offers Regenerate on the last answer only', () => {
    expect(offered(show({ abilities: { ...NONE, regenerate: true } }, false))).toEqual([]);
  });

  it('lets an answer being written be favorited, and nothing else', () => {
    const row = show({ status: 'streaming', content: 'Hal', finish_reason: null, abilities: { ...NONE, favorite: true, delete: true } });
    expect(offered(row)).toEqual(['Favorite']);
    expect(row.queryByRole('button', { name: 'Copy' })).toBeNull();
  });
});
