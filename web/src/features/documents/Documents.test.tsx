// The documents screens (spec part 2 §2 "Documents and editor", §5 "Document save", §8, §9; issue 15 item 1):
// the list (search, the four sorts, empty text, delete asked first), the editor page (a new document starts
// with 'Start writing here!' and is created by its first save, autosave 1.5 s after typing with its visible
// state, the 65000-character alert with nothing sent, Save, the Word download, a draft restored after a
// reload) and the autosave machine on its own.
// BlockNote needs layout APIs jsdom lacks, so here the editor is replaced at its module boundary
// (./DocumentEditor) by a textarea whose text becomes one paragraph block; the real editor is exercised by the
// browser journey (e2e/documents.e2e.test.ts).
import type { DocumentBlock, DocumentRecord, DocumentSummary } from '@pluma/common/documents';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, stubFetch } from '../../test/render';
import { Autosave, readDraft, type DocumentSnapshot } from './use-autosave';

const socket = await vi.hoisted(async () => (await import('../../test/fake-socket')).createFakeSocket());
vi.mock('../../api/socket', async () => (await import('../../test/fake-socket')).fakeSocketModule(socket));

vi.mock('./DocumentEditor', async () => {
  const { useEffect, useRef } = await import('react');
  const textOf = (blocks: DocumentBlock[]) =>
    blocks.map((b) => (Array.isArray(b.content) ? b.content.map((c) => String((c as { text?: string }).text ?? '')).join('') : '')).join('\n');
  type Handle = { read: () => { blocks: DocumentBlock[]; content: string }; appendMarkdown: (markdown: string) => void };
  function FakeEditor({ initialBlocks, onReady, onChange }: { initialBlocks: DocumentBlock[]; onReady: (h: Handle) => void; onChange: () => void }) {
    const area = useRef<HTMLTextAreaElement>(null);
    useEffect(() => {
      onReady({
        read: () => {
          const text = area.current?.value ?? '';
          return { blocks: [{ type: 'paragraph', content: [{ type: 'text', text, styles: {} }], children: [] }], content: `<p>${text}</p>` };
        },
        appendMarkdown: (markdown) => {
          if (area.current) area.current.value += `\n[md]${markdown}`;
          onChange();
        },
      });
    }, [onReady, onChange]);
    return <textarea ref={area} aria-label="editor" defaultValue={textOf(initialBlocks)} onChange={onChange} data-testid="fake-editor" />;
  }
  return { default: FakeEditor };
});

const { default: DocumentsPage } = await import('./DocumentsPage');
const { default: DocumentEditorPage } = await import('./DocumentEditorPage');

beforeAll(async () => {
  await i18n.loadNamespaces(['documents']);
  await i18n.loadLanguages('es');
});
beforeEach(() => {
  window.localStorage.clear();
  socket.handlers.clear();
});
afterEach(async () => {
  vi.useRealTimers();
  await i18n.changeLanguage('en');
});

const ABILITIES = { edit: true, delete: true, export: true };
const summary = (overrides: Partial<DocumentSummary> = {}): DocumentSummary => ({
  document_id: 3,
  name: 'Plan',
  tags: [],
  organization_id: null,
  user_id: 7,
  excerpt: 'The plan for the quarter',
  characters: 24,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  abilities: ABILITIES,
  ...overrides,
});
const record = (overrides: Partial<DocumentRecord> = {}): DocumentRecord => {
  const { excerpt: _excerpt, ...rest } = summary();
  return { ...rest, content: '<p>Hello</p>', blocks: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hello', styles: {} }], children: [] }], ...overrides };
};
const session = () => fakeSession(buildUser({ user_id: 7 }));
const list = (documents: DocumentSummary[], total = documents.length) => ({ body: { documents, total, page: 1, pageSize: 24 } });

describe('documents list', () => {
  it('lists the documents, searches, sorts, and shows the empty text', async () => {
    const { calls } = stubFetch({ 'GET /api/documents': (_init, url) => (new URL(url, 'http://x').searchParams.get('query') === 'zzz' ? list([]) : list([summary(), summary({ document_id: 4, name: 'Notes' })])) });
    renderScreen(<DocumentsPage />, { session: session(), route: '/documents' });
    const cards = await screen.findAllByTestId('document-card');
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent('Plan');
    expect(cards[0]).toHaveTextContent('The plan for the quarter');
    expect(within(cards[1]).getByTestId('open-document')).toHaveAttribute('href', '/documents/4');
    expect(new URL(calls[0].url, 'http://x').searchParams.get('sortBy')).toBe('updatedAt_desc');

    const user = userEvent.setup({ delay: null });
    await user.selectOptions(screen.getByTestId('documents-sort'), 'name_asc');
    await waitFor(() => expect(new URL(calls.at(-1)!.url, 'http://x').searchParams.get('sortBy')).toBe('name_asc'));
    expect(screen.getByRole('option', { name: 'Last Created' })).toBeInTheDocument();
    await user.type(screen.getByTestId('documents-search'), 'zzz');
    expect(await screen.findByTestId('documents-empty', {}, { timeout: 3000 })).toHaveTextContent('No documents match your search');
  });

  it("shows 'no documents' when there are none, in Spanish too", async () => {
    await i18n.changeLanguage('es');
    stubFetch({ 'GET /api/documents': () => list([]) });
    renderScreen(<DocumentsPage />, { session: session(), route: '/documents' });
    expect(await screen.findByTestId('documents-empty')).toHaveTextContent('Todavía no tienes documentos');
    expect(screen.getByTestId('new-document')).toHaveAttribute('href', '/documents/new');
  });

  it('deletes a document only after confirming, then says so', async () => {
    let documents = [summary()];
    const { calls } = stubFetch({
      'GET /api/documents': () => list(documents),
      'DELETE /api/documents/3': () => {
        documents = [];
        return { body: { deleted: true } };
      },
    });
    renderScreen(<DocumentsPage />, { session: session(), route: '/documents' });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('delete-document'));
    const modal = await screen.findByTestId('delete-document-modal');
    await waitFor(() => expect(modal).toHaveTextContent('“Plan” will be deleted. This cannot be undone.'));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(await within(modal).findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Document deleted')).toBeInTheDocument();
    expect(await screen.findByTestId('documents-empty')).toHaveTextContent("You don't have any documents yet");
  });
});

describe('document editor page', () => {
  const editorRoute = (route: string) => ({ session: session(), route, path: '/documents/:documentId' });

  it("starts a new document with 'Start writing here!', creates it on the first autosave, then updates it", async () => {
    let saved = 0;
    const { calls } = stubFetch({
      'POST /api/documents': (init) => ({ status: 201, body: record({ document_id: 11, ...JSON.parse(String(init.body)) }) }),
      'PUT /api/documents': (init) => {
        saved += 1;
        return { body: record({ document_id: 11, ...JSON.parse(String(init.body)) }) };
      },
    });
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/new'));
    const editor = (await screen.findByTestId('fake-editor')) as HTMLTextAreaElement;
    expect(editor.value).toBe('Start writing here!');
    expect(screen.getByTestId('document-save-state')).toHaveTextContent('Saved');

    const user = userEvent.setup({ delay: null });
    await user.type(editor, ' Hello');
    expect(screen.getByTestId('document-save-state')).toHaveTextContent('Unsaved changes');
    // Nothing is sent while typing; 1.5 s after the last key the document is created.
    expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1), { timeout: 4000 });
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ name: 'Untitled document', content: '<p>Start writing here! Hello</p>' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/documents/11'));
    await waitFor(() => expect(screen.getByTestId('document-save-state')).toHaveTextContent('Saved'));
    // The same editor stays (no reload from the server); later changes are PUTs to the created id.
    expect(screen.getByTestId('fake-editor')).toBe(editor);
    await user.clear(screen.getByTestId('document-name'));
    expect(screen.getByTestId('document-name').closest('.mantine-InputWrapper-root')).toHaveTextContent('The document needs a name.');
    await user.type(screen.getByTestId('document-name'), 'Report');
    await user.click(screen.getByTestId('document-save'));
    await waitFor(() => expect(saved).toBe(1));
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ document_id: 11, name: 'Report' });
    expect(await screen.findByText('Document saved')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('refuses to save 65000 characters or more with the spec alert and sends nothing', async () => {
    const { calls } = stubFetch({ 'GET /api/documents/3': () => ({ body: record() }), 'PUT /api/documents': () => ({ body: record() }) });
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/3'));
    const editor = (await screen.findByTestId('fake-editor')) as HTMLTextAreaElement;
    const user = userEvent.setup({ delay: null });
    await user.click(editor);
    await user.paste('a'.repeat(65_000));
    await user.click(screen.getByTestId('document-save'));
    expect(await screen.findByTestId('document-too-large')).toHaveTextContent('The file length is too large, please remove text to save');
    expect(screen.getByTestId('document-save-state')).toHaveTextContent('Too long to save');
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('downloads the Word file of the saved document', async () => {
    const { calls } = stubFetch({ 'GET /api/documents/3': () => ({ body: record({ name: 'Q1: plan' }) }), 'GET /api/documents/doc-converted/3': () => ({ body: {} }) });
    const created: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => (created.push(blob), 'blob:x'), revokeObjectURL: () => undefined }));
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/3'));
    await screen.findByTestId('fake-editor');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('document-tools-toggle'));
    expect(screen.getByTestId('document-tools')).toHaveTextContent('Download');
    await user.click(screen.getByTestId('document-download-word'));
    await waitFor(() => expect(calls.some((c) => c.url.includes('/api/documents/doc-converted/3'))).toBe(true));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(names).toEqual(['Q1  plan.docx']);
    click.mockRestore();
  });

  it('restores an unsaved draft after a reload and saves it', async () => {
    let reachable = false;
    const { calls } = stubFetch({
      'GET /api/documents/3': () => ({ body: record() }),
      'PUT /api/documents': (init) => (reachable ? { body: record(JSON.parse(String(init.body))) } : { status: 400, body: { error: 'validation_error', message: 'Refused.' } }),
    });
    const first = renderScreen(<DocumentEditorPage />, editorRoute('/documents/3'));
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByTestId('fake-editor'), ' world');
    // The tab is closed before autosave ran: the draft is kept locally at once and a save is tried (it fails).
    act(() => window.dispatchEvent(new Event('pagehide')));
    expect(readDraft('7.personal', 3)).toMatchObject({ content: '<p>Hello world</p>' });
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    first.unmount();
    expect(readDraft('7.personal', 3)).toMatchObject({ content: '<p>Hello world</p>' });

    // The next load starts from the draft, not the server's older text, and saves it.
    reachable = true;
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/3'));
    expect(((await screen.findByTestId('fake-editor')) as HTMLTextAreaElement).value).toBe('Hello world');
    expect(screen.getByTestId('document-save-state')).toHaveTextContent('Unsaved changes');
    await waitFor(() => expect(screen.getByTestId('document-save-state')).toHaveTextContent('Saved'), { timeout: 4000 });
    expect(calls.filter((c) => c.method === 'PUT').at(-1)!.body).toMatchObject({ document_id: 3, content: '<p>Hello world</p>' });
    expect(readDraft('7.personal', 3)).toBeNull();
  });

  it("asks an avatar with the document as context, shows '{app} is looking for an answer...', and appends the answer", async () => {
    const { calls } = stubFetch({
      'GET /api/documents/3': () => ({ body: record() }),
      'GET /api/avatars': () => ({ body: { avatars: [{ avatar_id: 21, name: 'Copywriter' }], total: 1 } }),
      'POST /api/outputs/generate': () => ({ status: 202, body: { outputs: [{ output_id: 77, status: 'pending', content: null }] } }),
      'PUT /api/documents': (init) => ({ body: record(JSON.parse(String(init.body))) }),
    });
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/3'));
    const editor = (await screen.findByTestId('fake-editor')) as HTMLTextAreaElement;
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('document-tools-toggle'));
    const tool = screen.getByTestId('document-avatar-tool');
    expect(within(tool).getByTestId('document-avatar-send')).toBeDisabled();
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/avatars'))).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    fireEvent.click(within(tool).getByTestId('document-avatar-select'));
    fireEvent.click(await screen.findByRole('option', { name: 'Copywriter', hidden: true }));
    await user.type(within(tool).getByPlaceholderText('Send a message to your avatar'), 'Write a summary');
    await user.click(within(tool).getByTestId('document-avatar-send'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      assistant_id: 21,
      target: 'document',
      messages: ['Hello\n\nUse the above text to make a response for the next request\n\nWrite a summary'],
    });
    expect(await screen.findByTestId('document-generating')).toHaveTextContent(/is looking for an answer\.\.\./);
    // Another output's answer is not ours.
    act(() => socket.emit('document_avatar', { output_id: 5, content: 'other', output: { status: 'done' } }));
    expect(editor.value).toBe('Hello');
    act(() => socket.emit('document_avatar', { output_id: 77, content: '| a | b |\n|---|---|\n| 1 | 2 |', output: { status: 'done' } }));
    expect(editor.value).toBe('Hello\n[md]| a | b |\n|---|---|\n| 1 | 2 |');
    expect(screen.queryByTestId('document-generating')).toBeNull();
    expect(screen.getByTestId('document-save-state')).toHaveTextContent('Unsaved changes');
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true), { timeout: 4000 });
  });

  it('ignores a draft when the server has a newer version than the one it was written from', async () => {
    window.localStorage.setItem(
      'pluma.documentDraft.7.personal.3',
      JSON.stringify({ name: 'Plan', blocks: [], content: '<p>old draft</p>', savedAt: '2026-01-01T00:00:00.000Z', baseUpdatedAt: '2026-01-01T00:00:00.000Z' }),
    );
    stubFetch({ 'GET /api/documents/3': () => ({ body: record({ content: '<p>Hello</p>', updatedAt: '2026-01-03T00:00:00.000Z' }) }) });
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/3'));
    expect(((await screen.findByTestId('fake-editor')) as HTMLTextAreaElement).value).toBe('Hello');
    expect(screen.getByTestId('document-save-state')).toHaveTextContent('Saved');
  });

  it('answers a missing or foreign document with its message', async () => {
    stubFetch({});
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/99'));
    expect(await screen.findByTestId('document-error')).toHaveTextContent('This document does not exist or is not yours.');
  });
});

describe('autosave machine', () => {
  const snapshot = (text: string): DocumentSnapshot => ({ name: 'Doc', blocks: [], content: `<p>${text}</p>` });

  it('saves once after the quiet period, one save at a time, and saves changes made during a save next', async () => {
    vi.useFakeTimers();
    let text = 'a';
    const resolvers: (() => void)[] = [];
    const save = vi.fn((_s: DocumentSnapshot, id: number | null) => new Promise<{ documentId: number; updatedAt: string }>((resolve) => resolvers.push(() => resolve({ documentId: id ?? 5, updatedAt: 'x' }))));
    const onCreated = vi.fn();
    const machine = new Autosave({ draftScope: 's', documentId: null, baseUpdatedAt: null, read: () => snapshot(text), save, onCreated });
    machine.change();
    machine.change();
    await vi.advanceTimersByTimeAsync(1499);
    expect(save).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(save).toHaveBeenCalledTimes(1);
    expect(machine.state).toBe('saving');
    text = 'ab';
    machine.change();
    await vi.advanceTimersByTimeAsync(2000);
    expect(save).toHaveBeenCalledTimes(1);
    // The waiting save runs as soon as the first one is done, as an update of the created document.
    resolvers.shift()!();
    await vi.advanceTimersByTimeAsync(0);
    expect(onCreated).toHaveBeenCalledWith(5);
    expect(save).toHaveBeenCalledTimes(2);
    expect(save.mock.calls[1]).toEqual([snapshot('ab'), 5]);
    resolvers.shift()!();
    await vi.advanceTimersByTimeAsync(0);
    expect(machine.state).toBe('saved');
    expect(machine.dirty).toBe(false);
  });

  it('keeps a failed save as a draft and says so', async () => {
    vi.useFakeTimers();
    const onError = vi.fn();
    const machine = new Autosave({ draftScope: 's', documentId: 8, baseUpdatedAt: 'v1', read: () => snapshot('kept'), save: () => Promise.reject(new Error('offline')), onError });
    machine.change();
    await vi.advanceTimersByTimeAsync(1500);
    expect(machine.state).toBe('error');
    expect(onError).toHaveBeenCalled();
    expect(readDraft('s', 8)).toMatchObject({ content: '<p>kept</p>', baseUpdatedAt: 'v1' });
  });

  it('warns about the limit once while typing, every time on Save, and never sends', async () => {
    vi.useFakeTimers();
    const save = vi.fn(async () => ({ documentId: 8, updatedAt: 'x' }));
    const onTooLarge = vi.fn();
    const machine = new Autosave({ draftScope: 's', documentId: 8, baseUpdatedAt: 'v1', read: () => snapshot('x'.repeat(65_000)), save, onTooLarge });
    machine.change();
    await vi.advanceTimersByTimeAsync(1500);
    machine.change();
    await vi.advanceTimersByTimeAsync(1500);
    expect(onTooLarge).toHaveBeenCalledTimes(1);
    await machine.saveNow();
    expect(onTooLarge).toHaveBeenCalledTimes(2);
    expect(save).not.toHaveBeenCalled();
    expect(machine.state).toBe('tooLarge');
  });
});

describe('stored HTML on render', () => {
  it('keeps the document and drops scripts, handlers, javascript: URLs and non-checkbox inputs', async () => {
    const { DocumentHtml, sanitizeDocumentHtml } = await import('./DocumentHtml');
    const html =
      '<h1 onclick="x()">Title</h1><script>alert(1)</script><p>ok<img src="x" onerror="alert(2)"><img src="https://example.com/a.png">' +
      '<a href="javascript:alert(3)">bad</a><a href="https://example.com/a">good</a><iframe src="https://evil.example"></iframe>' +
      '<input type="text" value="x"><input type="checkbox" checked></p><svg><script>alert(4)</script></svg>';
    const clean = sanitizeDocumentHtml(html);
    expect(clean).not.toMatch(/script|onerror|onclick|javascript:|iframe|svg|type="text"/i);
    expect(clean).toContain('<h1>Title</h1>');
    expect(clean).toContain('<a href="https://example.com/a" target="_blank" rel="noopener noreferrer nofollow">good</a>');
    expect(clean).toContain('<img src="https://example.com/a.png">');
    expect(clean).toMatch(/<input (type="checkbox" checked="" disabled=""|checked="" type="checkbox" disabled="")>/);
    renderScreen(<DocumentHtml html={html} data-testid="doc-html" />, { session: session() });
    const shown = screen.getByTestId('doc-html');
    expect(within(shown).getByRole('heading', { name: 'Title' })).toBeInTheDocument();
    expect(shown.querySelector('script, iframe, [onerror]')).toBeNull();
  });
});
