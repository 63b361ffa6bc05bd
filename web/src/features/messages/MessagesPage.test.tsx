// The /messages screen: favorites by default, All, a debounced search, "Load more" by cursor, items that
// link to their conversation, and the empty and loading states.
import type { BrowsedMessage, BrowsedMessagePage } from '@pluma/common/messages-api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import MessagesPage from './MessagesPage';

const item = (overrides: Partial<BrowsedMessage> & Pick<BrowsedMessage, 'message_id'>): BrowsedMessage => ({
  conversation_id: 9,
  conversation_name: 'Garden notes',
  role: 'assistant',
  snippet: 'Tomatoes need sun.',
  model: null,
  favorite: true,
  status: 'done',
  createdAt: '2026-03-04T10:00:00.000Z',
  citations: [],
  ...overrides,
});
const page = (messages: BrowsedMessage[], next_cursor: number | null = null): { body: BrowsedMessagePage } => ({ body: { messages, next_cursor } });
const paramsOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

beforeAll(async () => {
  await i18n.loadNamespaces('messages');
});

function renderPage(handler: (url: string) => { status?: number; body?: unknown }, route = '/messages') {
  const api = stubFetch({ 'GET /api/messages': (_init, url) => handler(url) });
  renderScreen(
    <Suspense fallback={null}>
      <MessagesPage />
    </Suspense>,
    { route, path: '/messages', session: fakeSession(buildUser()) },
  );
  return api;
}

describe('MessagesPage', () => {
  it('lists favorites by default, each linking to its conversation with a snippet and date', async () => {
    await setLanguage('en');
    const api = renderPage(() => page([item({ message_id: 12 }), item({ message_id: 11, conversation_id: 4, conversation_name: 'Travel', role: 'user', snippet: 'Plan a trip', favorite: false })]));
    const items = await screen.findAllByTestId('browsed-message');
    expect(items).toHaveLength(2);
    expect(paramsOf(api.calls[0].url)).toEqual({ favorite: 'true', limit: '20' });
    expect(within(items[0]).getByRole('link', { name: 'In Garden notes' })).toHaveAttribute('href', '/conversations/9');
    expect(within(items[0]).getByText('Tomatoes need sun.')).toBeInTheDocument();
    expect(within(items[0]).getByText('Answer')).toBeInTheDocument();
    expect(within(items[0]).getByRole('img', { name: 'Favorite' })).toBeInTheDocument();
    expect(within(items[0]).getByText(/2026/).closest('time')).toHaveAttribute('dateTime', '2026-03-04T10:00:00.000Z');
    expect(within(items[1]).getByRole('link', { name: 'In Travel' })).toHaveAttribute('href', '/conversations/4');
    expect(within(items[1]).getByText('You')).toBeInTheDocument();
  });

  it("shows an avatar answer's citations, the passage opening on click; other items have none", async () => {
    await setLanguage('en');
    const citation = { file_id: 31, name: 'keeper-notes.pdf', page: 3, heading: null, text: 'The keeper logs the foghorn every night at eleven.' };
    renderPage(() => page([item({ message_id: 12, citations: [citation] }), item({ message_id: 11, snippet: 'No sources.' })]));
    const items = await screen.findAllByTestId('browsed-message');
    const cited = await within(items[0]).findByTestId('citation');
    expect(cited).toHaveTextContent('keeper-notes.pdf · p. 3');
    expect(within(items[1]).queryByTestId('citations')).not.toBeInTheDocument();
    fireEvent.click(cited);
    expect(await screen.findByTestId('citation-text')).toHaveTextContent('The keeper logs the foghorn every night at eleven.');
  });

  it('All drops the favorite filter and is kept in the URL', async () => {
    await setLanguage('en');
    const api = renderPage((url) => page([item({ message_id: paramsOf(url).favorite ? 2 : 1 })]));
    await screen.findAllByTestId('browsed-message');
    fireEvent.click(screen.getByText('All'));
    await waitFor(() => expect(api.calls.some((c) => !('favorite' in paramsOf(c.url)))).toBe(true));
    expect(screen.getByTestId('location')).toHaveTextContent('/messages?show=all');
    await waitFor(() => expect(screen.getByTestId('browsed-message')).toHaveAttribute('data-message-id', '1'));
  });

  it('searches after typing stops, and says when nothing matches', async () => {
    await setLanguage('en');
    const api = renderPage((url) => (paramsOf(url).query ? page([]) : page([item({ message_id: 1 })])));
    await screen.findAllByTestId('browsed-message');
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: '  100% tomato_ ' } });
    expect(await screen.findByText('No messages match “100% tomato_”', {}, { timeout: 3000 })).toBeInTheDocument();
    const searches = api.calls.filter((c) => paramsOf(c.url).query);
    // One request for the finished text, sent as typed (the server treats % and _ literally).
    expect(searches.map((c) => paramsOf(c.url).query)).toEqual(['100% tomato_']);
  });

  it('"Load more" asks for the messages before the last one shown', async () => {
    await setLanguage('en');
    const api = renderPage((url) => (paramsOf(url).cursor === '11' ? page([item({ message_id: 10 })]) : page([item({ message_id: 12 }), item({ message_id: 11 })], 11)));
    await screen.findAllByTestId('browsed-message');
    fireEvent.click(screen.getByTestId('messages-load-more'));
    await waitFor(() => expect(screen.getAllByTestId('browsed-message')).toHaveLength(3));
    expect(paramsOf(api.calls.at(-1)!.url)).toEqual({ favorite: 'true', cursor: '11', limit: '20' });
    expect(screen.queryByTestId('messages-load-more')).not.toBeInTheDocument();
  });

  it('shows the loading state, then the empty favorites state (Spanish)', async () => {
    await setLanguage('es');
    let answer: (value: { body: BrowsedMessagePage }) => void = () => undefined;
    const pending = new Promise<{ body: BrowsedMessagePage }>((resolve) => (answer = resolve));
    // A fetch that answers when the test says so.
    vi.stubGlobal('fetch', vi.fn(async () => pending.then((p) => new Response(JSON.stringify(p.body), { status: 200, headers: { 'Content-Type': 'application/json' } }))));
    renderScreen(
      <Suspense fallback={null}>
        <MessagesPage />
      </Suspense>,
      { route: '/messages', path: '/messages', session: fakeSession(buildUser()) },
    );
    expect(await screen.findByTestId('messages-loading')).toBeInTheDocument();
    answer({ body: { messages: [], next_cursor: null } });
    expect(await screen.findByText('Aún no tienes mensajes favoritos')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Mensajes' })).toBeInTheDocument();
    await setLanguage('en');
  });
});
