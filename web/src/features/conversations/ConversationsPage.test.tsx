import type { Conversation } from '@pluma/common/conversations';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { buildConversation } from '../../test/messages';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import ConversationsPage from './ConversationsPage';

const base: Conversation = buildConversation({ conversation_id: 1, name: 'Launch plan', model: 'demo', tags: 'work,launch,q3,extra', updatedAt: '2026-01-02T00:00:00.000Z' });

const models = [{ id: 'demo', label: 'Demo (offline)', provider: 'demo', isDefault: true }];

function renderList(conversations: Conversation[], extra: Parameters<typeof stubFetch>[0] = {}, route = '/conversations') {
  const api = stubFetch({
    'GET /api/conversations': () => ({ body: { conversations, total: conversations.length, next_cursor: null } }),
    'GET /api/models': () => ({ body: models }),
    ...extra,
  });
  renderScreen(
    <Suspense fallback={null}>
      <ConversationsPage />
    </Suspense>,
    { route, path: route.startsWith('/conversation/tags') ? '/conversation/tags/:tag' : '*', session: fakeSession(buildUser()), config: { search_enabled: 'true' } },
  );
  return api;
}

const listCalls = (calls: { method: string; url: string }[]) =>
  calls.filter((c) => c.method === 'GET' && new URL(c.url, 'http://x').pathname === '/api/conversations').map((c) => new URL(c.url, 'http://x').searchParams);

// The 'chat' namespace loads lazily in the app; here it is loaded once up front.
beforeAll(async () => {
  await i18n.loadNamespaces('chat');
  await i18n.loadLanguages('es');
});

beforeEach(async () => {
  await setLanguage('en');
});

describe('conversation list', () => {
  it('shows cards with name, up to 3 tags, the model badge and the recent preview', async () => {
    const { calls } = renderList([base, { ...base, conversation_id: 2, name: 'Ideas', model: null, tags: '' }]);
    const cards = await screen.findAllByTestId('conversation-card');
    expect(cards).toHaveLength(2);
    const first = cards[0];
    expect(within(first).getByRole('link', { name: 'Launch plan' })).toHaveAttribute('href', '/conversations/1');
    expect(within(first).getAllByRole('link', { name: /^(work|launch|q3)$/ })).toHaveLength(3);
    expect(within(first).getByText('+1 more')).toBeInTheDocument();
    expect(within(first).getByTestId('model-badge')).toHaveTextContent('Demo (offline)');
    expect(within(cards[1]).getByTestId('model-badge')).toHaveTextContent('Default model');
    expect(await screen.findByTestId('recent-conversations')).toBeInTheDocument();
    const limits = listCalls(calls).map((params) => params.get('limit'));
    expect(limits).toContain('5');
  });

  it('says "1,000+" when the server stopped counting (total_capped), in English and Spanish', async () => {
    const capped = { 'GET /api/conversations': () => ({ body: { conversations: [base], total: 1000, total_capped: true, next_cursor: 'next' } }) };
    renderList([base], capped);
    expect(await screen.findByText('Showing 1 of 1,000+ conversations')).toBeInTheDocument();
    await setLanguage('es');
    expect(await screen.findByText('Mostrando 1 de más de 1000 conversaciones')).toBeInTheDocument();
  });

  it('offers only the actions the server allows on each conversation (its abilities)', async () => {
    const readOnly = { ...base, conversation_id: 3, name: 'Shared', abilities: { read: true, update: false, delete: false, chat: false } };
    renderList([base, readOnly]);
    const cards = await screen.findAllByTestId('conversation-card');
    expect(within(cards[0]).getByRole('button', { name: 'Edit Launch plan' })).toBeInTheDocument();
    expect(within(cards[0]).getByRole('button', { name: 'Delete Launch plan' })).toBeInTheDocument();
    expect(within(cards[1]).queryByRole('button', { name: 'Edit Shared' })).toBeNull();
    expect(within(cards[1]).queryByRole('button', { name: 'Archive Shared' })).toBeNull();
    expect(within(cards[1]).queryByRole('button', { name: 'Delete Shared' })).toBeNull();
  });

  it('sorts, searches (debounced) and shows archived conversations', async () => {
    const { calls } = renderList([base]);
    await screen.findAllByTestId('conversation-card');
    fireEvent.click(screen.getByRole('switch', { name: 'Archived' }));
    await waitFor(() => expect(listCalls(calls).some((p) => p.get('archived') === 'true')).toBe(true));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'launch' } });
    await waitFor(() => expect(listCalls(calls).some((p) => p.get('query') === 'launch')).toBe(true), { timeout: 2000 });
    expect(screen.getByTestId('location')).toHaveTextContent('archived=1');
  });

  it('shows the empty state and requires a name for a new conversation, then opens it', async () => {
    const created = { ...base, conversation_id: 42, name: 'Fresh', tags: 'a,b', model: null };
    const { calls } = renderList([], { 'POST /api/conversations': () => ({ status: 201, body: created }) });
    expect(await screen.findByTestId('conversations-empty')).toHaveTextContent("There aren't any conversations yet");
    fireEvent.click(screen.getByTestId('new-conversation'));
    const modal = await screen.findByTestId('conversation-form-modal');
    fireEvent.click(await within(modal).findByRole('button', { name: 'Create' }));
    expect(await within(modal).findByText("The input can't be empty")).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(within(modal).getByRole('textbox', { name: /Name/ }), { target: { value: 'Fresh' } });
    const tags = within(modal).getByTestId('conversation-tags-input');
    // spec part 2 §5: typing a comma adds the tag.
    tags.focus();
    for (const tag of ['a', 'b']) {
      fireEvent.change(tags, { target: { value: tag } });
      fireEvent.keyDown(tags, { key: ',' });
    }
    expect(within(modal).getByText('a')).toBeInTheDocument();
    fireEvent.click(within(modal).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/conversations/42'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Fresh', model: null, tags: ['a', 'b'], organization_id: null });
  });

  it('archives a conversation and confirms before deleting one', async () => {
    const { calls } = renderList([base], {
      'PUT /api/conversations': () => ({ body: { ...base, archived: true } }),
      'DELETE /api/conversations/1': () => ({ body: { deleted: true } }),
    });
    const card = (await screen.findAllByTestId('conversation-card'))[0];
    fireEvent.click(within(card).getByRole('button', { name: 'Archive Launch plan' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ conversation_id: 1, archived: true }));
    expect(await screen.findByText('Conversation archived')).toBeInTheDocument();
    fireEvent.click(within(card).getByRole('button', { name: 'Delete Launch plan' }));
    const confirm = await screen.findByTestId('delete-conversation-modal');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(await within(confirm).findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/api/conversations/1'))).toBe(true));
  });

  it('lists one tag’s conversations on /conversation/tags/{tag}', async () => {
    const { calls } = renderList([base], {}, '/conversation/tags/launch');
    expect(await screen.findByRole('heading', { name: 'Tag: launch' })).toBeInTheDocument();
    await waitFor(() => expect(listCalls(calls).some((p) => p.get('tags') === 'launch')).toBe(true));
  });
});
