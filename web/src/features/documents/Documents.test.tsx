// The documents screens (spec part 2 §2 "Documents and editor", §5 "Document save", §8, §9; issue 15 item 1):
// the list (search, the four sorts, empty text, delete asked first), the editor page (a new document starts
// with 'Start writing here!' and is created by its first save, autosave 1.5 s after typing with its visible
// state, the 65000-character alert with nothing sent, Save, the Word download, a draft restored after a
// reload), the generation tools (each tool's request, the document as context, one at a time, frames streamed
// into the editor and committed, the header states, the failure and limit texts, the reload banner, EN/ES)
// and the autosave machine on its own.
// BlockNote needs layout APIs jsdom lacks, so here the editor is replaced at its module boundary
// (./DocumentEditor) by a textarea whose text becomes one paragraph block, plus a fake block list that the
// generations stream into (testing/fake-stream-editor.ts); the real editor is exercised by the browser
// journeys (e2e/documents.e2e.test.ts, e2e/documents-generate.e2e.test.ts).
import type { DocumentBlock, DocumentRecord, DocumentSummary } from '@pluma/common/documents';
import type { DocumentGeneration } from '@pluma/common/documents-generate';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useEffect, useRef, useState } from 'react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, stubFetch, stubObjectUrls } from '../../test/render';
import { clearLocalDocumentData } from './local-data';
import { setupFakeDocumentEditor } from './testing/fake-document-editor';
import { FakeStreamEditor } from './testing/fake-stream-editor';
import { Autosave, readDraft, type DocumentSnapshot } from './use-autosave';
import { setupFakeSocket } from '../../test/fake-socket';
import { organizationStore } from '../../api/organization';

const socket = setupFakeSocket();

/** The block list of the mounted fake editor, which generations stream into. */
const fake = { stream: null as FakeStreamEditor | null };

// The editor is this file's FakeEditor below, drawn through the shared mock (testing/fake-document-editor.tsx).
vi.mock('./DocumentEditor', () => import('./testing/fake-document-editor'));

// Every edit of the block list is a change, as in BlockNote.
class LiveEditor extends FakeStreamEditor {
  constructor(private readonly changed: () => void) {
    super(['(typed)', '']);
  }
  override insertBlocks(...args: Parameters<FakeStreamEditor['insertBlocks']>) {
    const inserted = super.insertBlocks(...args);
    this.changed();
    return inserted;
  }
  override replaceBlocks(...args: Parameters<FakeStreamEditor['replaceBlocks']>) {
    const replaced = super.replaceBlocks(...args);
    this.changed();
    return replaced;
  }
  override removeBlocks(...args: Parameters<FakeStreamEditor['removeBlocks']>) {
    const removed = super.removeBlocks(...args);
    this.changed();
    return removed;
  }
}
const textOf = (blocks: DocumentBlock[]) =>
  blocks.map((b) => (Array.isArray(b.content) ? b.content.map((c) => String((c as { text?: string }).text ?? '')).join('') : '')).join('\n');
type Handle = { read: () => { blocks: DocumentBlock[]; content: string }; appendMarkdown: (markdown: string) => void; stream: FakeStreamEditor };
function FakeEditor({ initialBlocks, placeholder, onReady, onChange }: { initialBlocks: DocumentBlock[]; placeholder?: string; onReady: (h: Handle) => void; onChange: () => void }) {
  const area = useRef<HTMLTextAreaElement>(null);
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  });
  // eslint-disable-next-line react-hooks/refs -- read on edits, after render (as BlockNote calls onChange)
  const [stream] = useState(() => new LiveEditor(() => changed.current()));
  useEffect(() => {
    fake.stream = stream;
  }, [stream]);
  useEffect(() => {
    onReady({
      read: () => {
        const text = area.current?.value ?? '';
        // The typed text, then whatever was generated into the block list.
        const generated = stream.blocks.slice(1, -1).map((b) => b.content[0]?.text ?? '');
        const blocks = [text, ...generated].map((t): DocumentBlock => ({ type: 'paragraph', content: [{ type: 'text', text: t, styles: {} }], children: [] }));
        return { blocks, content: [text, ...generated].map((t) => `<p>${t}</p>`).join('') };
      },
      appendMarkdown: (markdown) => {
        if (area.current) area.current.value += `\n[md]${markdown}`;
        onChange();
      },
      stream,
    });
  }, [onReady, onChange, stream]);
  return <textarea ref={area} aria-label="editor" defaultValue={textOf(initialBlocks)} placeholder={placeholder} onChange={onChange} data-testid="fake-editor" />;
}
setupFakeDocumentEditor(FakeEditor);

const { default: DocumentsPage } = await import('./DocumentsPage');
const { default: DocumentEditorPage } = await import('./DocumentEditorPage');

beforeAll(async () => {
  await i18n.loadNamespaces(['documents', 'templates', 'super-fetch']);
  await i18n.loadLanguages('es');
});
beforeEach(() => {
  window.localStorage.clear();
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

  it('walks pages in order with the previous page’s cursor, and jumps by number alone (issue 31 item 1)', async () => {
    const { calls } = stubFetch({
      'GET /api/documents': (_init, url) => {
        const page = Number(new URL(url, 'http://x').searchParams.get('page'));
        return { body: { documents: [summary({ document_id: page, name: `Page ${page}` })], total: 72, page, pageSize: 24, next_cursor: page < 3 ? `after-${page}` : null } };
      },
    });
    renderScreen(<DocumentsPage />, { session: session(), route: '/documents' });
    expect(await screen.findByText('Page 1')).toBeInTheDocument();
    const user = userEvent.setup({ delay: null });
    const sent = () => Object.fromEntries(['page', 'cursor'].map((k) => [k, new URL(calls.at(-1)!.url, 'http://x').searchParams.get(k)]));
    await user.click(screen.getByRole('button', { name: '2' }));
    expect(await screen.findByText('Page 2')).toBeInTheDocument();
    expect(sent()).toEqual({ page: '2', cursor: 'after-1' });
    await user.click(screen.getByRole('button', { name: '3' }));
    expect(await screen.findByText('Page 3')).toBeInTheDocument();
    expect(sent()).toEqual({ page: '3', cursor: 'after-2' });
    // Sorted another way, page 1 is not in the cache: a jump to page 3 goes by its number.
    await user.selectOptions(screen.getByTestId('documents-sort'), 'name_asc');
    await user.click(await screen.findByRole('button', { name: '3' }));
    await waitFor(() => expect(new URL(calls.at(-1)!.url, 'http://x').searchParams.get('sortBy')).toBe('name_asc'));
    await waitFor(() => expect(sent().page).toBe('3'));
    expect(sent().cursor).toBeNull();
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

  it("starts a new document empty with the hint 'Start writing here!', creates it on the first autosave, then updates it", async () => {
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
    // The hint is a placeholder, not content: it is never sent as context nor exported (issue 30 item 6).
    expect(editor.value).toBe('');
    expect(editor).toHaveAttribute('placeholder', 'Start writing here!');
    // Neutral until the first save, not 'Saved'.
    expect(screen.getByTestId('document-save-state')).toHaveTextContent('Not saved yet');

    const user = userEvent.setup({ delay: null });
    await user.type(editor, ' Hello');
    expect(screen.getByTestId('document-save-state')).toHaveTextContent('Unsaved changes');
    // Nothing is sent while typing; 1.5 s after the last key the document is created.
    expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1), { timeout: 4000 });
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ name: 'Untitled document', content: '<p> Hello</p>' });
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
    stubObjectUrls((blob) => (created.push(blob), 'blob:x'));
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

describe('generating into the document', { timeout: 30_000 }, () => {
  const editorRoute = (route: string, config?: Record<string, string>) => ({ session: session(), route, path: '/documents/:documentId', config });
  const generationOf = (overrides: Partial<DocumentGeneration> = {}): DocumentGeneration => ({
    generation_id: 50,
    document_id: 3,
    kind: 'prompt',
    status: 'streaming',
    content: '',
    error_code: null,
    applied: false,
    created_at: '2026-01-02T00:00:00.000Z',
    updated_at: '2026-01-02T00:00:00.000Z',
    ...overrides,
  });
  const frame = (delta: string, more: Record<string, unknown> = {}) => ({ generation_id: 50, document_id: 3, delta, done: false, status: 'streaming', error_code: null, ...more });
  /** What was generated into the fake editor's block list (between the typed block and the empty last one). */
  const generated = () => fake.stream!.blocks.slice(1, -1).map((b) => b.content[0]?.text ?? '');
  const routes = (extra: Parameters<typeof stubFetch>[0] = {}) =>
    stubFetch({
      'GET /api/documents/3': () => ({ body: record() }),
      'PUT /api/documents': (init) => ({ body: record(JSON.parse(String(init.body))) }),
      'POST /api/documents/avatar-output': () => ({ status: 202, body: { generation: generationOf() } }),
      'POST /api/documents/generations/50/applied': () => ({ body: { ...generationOf({ status: 'done', applied: true }) } }),
      'GET /api/avatars': () => ({ body: { avatars: [{ avatar_id: 21, name: 'Copywriter' }], total: 1 } }),
      ...extra,
    });
  const writes = (calls: { method: string; url: string }[]) => calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.url.split('?')[0]}`);
  async function openTools() {
    await screen.findByTestId('fake-editor');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('document-tools-toggle'));
    // The sections load on first opening (one Suspense boundary: all show together).
    await screen.findByTestId('document-prompt-tool');
    return user;
  }
  async function pickAvatar() {
    const tool = screen.getByTestId('document-avatar-tool');
    await waitFor(() => expect(within(tool).getByTestId('document-avatar-select')).not.toBeDisabled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    fireEvent.click(within(tool).getByTestId('document-avatar-select'));
    fireEvent.click(await screen.findByRole('option', { name: 'Copywriter', hidden: true }));
  }

  it('streams a Prompt answer in: finished blocks committed once, the trailing block replaced, throttled; then saved and marked applied', async () => {
    const { calls } = routes();
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/3'));
    const user = await openTools();
    const prompt = screen.getByTestId('document-prompt-tool');
    expect(within(prompt).getByTestId('document-prompt-generate')).toBeDisabled();
    await user.type(within(prompt).getByPlaceholderText('Insert your instruction!'), 'Write a plan');
    await user.click(within(prompt).getByTestId('document-prompt-generate'));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/documents/avatar-output')).toBe(true));
    // The document's text as context (on by default); nothing saved first: it had no changes.
    expect(calls.find((c) => c.url === '/api/documents/avatar-output')!.body).toEqual({ kind: 'prompt', prompt: 'Write a plan', document_id: 3, document_text: 'Hello' });
    expect(writes(calls)).toEqual(['POST /api/documents/avatar-output']);
    // '{app} is looking for an answer...' with a spinner; every tool waits (one generation at a time).
    expect(await screen.findByTestId('document-generating')).toHaveTextContent(/is looking for an answer\.\.\./);
    expect(screen.queryByTestId('document-name')).toBeNull();
    // While it runs, each tool's Generate is Stop (one generation at a time).
    expect(within(prompt).queryByTestId('document-prompt-generate')).toBeNull();
    expect(within(prompt).getByTestId('document-prompt-stop')).toHaveTextContent('Stop');
    expect(within(screen.getByTestId('document-avatar-tool')).getByTestId('document-avatar-stop')).toBeInTheDocument();
    expect(within(prompt).getByPlaceholderText('Insert your instruction!')).toHaveValue('');

    // Three frames at once are one render; another generation's frame is not ours.
    act(() => {
      socket.emit('document_output', frame('# Pl'));
      socket.emit('document_output', frame('an\n\nFirst'));
      socket.emit('document_output', { ...frame(' ignored'), generation_id: 99 });
      socket.emit('document_output', frame(' step'));
    });
    await waitFor(() => expect(generated()).toEqual(['# Plan', 'First step']));
    expect(fake.stream!.parsed).toEqual(['# Plan\n\n', 'First step']);
    const heading = fake.stream!.blocks[1];
    act(() => socket.emit('document_output', frame(' done.\n\n| a |')));
    await waitFor(() => expect(generated()).toEqual(['# Plan', 'First step done.', '| a |']));
    // The committed heading is never parsed or replaced again; only the new text was.
    expect(fake.stream!.blocks[1]).toBe(heading);
    expect(fake.stream!.parsed.slice(2)).toEqual(['First step done.\n\n', '| a |']);

    act(() => socket.emit('document_output', frame('', { done: true, status: 'done', content: '# Plan\n\nFirst step done.\n\n| a | b |' })));
    await waitFor(() => expect(writes(calls)).toEqual(['POST /api/documents/avatar-output', 'PUT /api/documents', 'POST /api/documents/generations/50/applied']));
    expect(generated()).toEqual(['# Plan', 'First step done.', '| a | b |']);
    expect(calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ document_id: 3, content: '<p>Hello</p><p># Plan</p><p>First step done.</p><p>| a | b |</p>' });
    expect(screen.queryByTestId('document-generating')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('document-save-state')).toHaveTextContent('Saved'));
    expect(within(prompt).getByTestId('document-prompt-generate')).toBeDisabled();
    await user.type(within(prompt).getByPlaceholderText('Insert your instruction!'), 'More');
    expect(within(prompt).getByTestId('document-prompt-generate')).toBeEnabled();
  });

  it('the Prompt tool searches the web when its globe switch is on (shown once a search provider is chosen)', async () => {
    const { calls } = routes();
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/3', { web_search_provider: 'searxng' }));
    const user = await openTools();
    const prompt = screen.getByTestId('document-prompt-tool');
    await user.click(within(prompt).getByRole('switch', { name: 'Search the web and cite the pages' }));
    await user.type(within(prompt).getByPlaceholderText('Insert your instruction!'), 'Latest fern care');
    await user.click(within(prompt).getByTestId('document-prompt-generate'));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/documents/avatar-output')).toBe(true));
    expect(calls.find((c) => c.url === '/api/documents/avatar-output')!.body).toEqual({ kind: 'prompt', prompt: 'Latest fern care', searchOnInternet: true, document_id: 3, document_text: 'Hello' });
  });

  it("sends to the picked avatar, which becomes the document's voice ('Your tone and style'), without context when switched off", async () => {
    const { calls } = routes();
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/3'));
    const user = await openTools();
    const tool = screen.getByTestId('document-avatar-tool');
    expect(within(tool).getByTestId('document-avatar-send')).toBeDisabled();
    expect(screen.queryByTestId('document-voice')).toBeNull();
    await pickAvatar();
    expect(await screen.findByTestId('document-voice')).toHaveTextContent('Your tone and style: Copywriter');
    await user.click(screen.getByTestId('document-context'));
    await user.type(within(tool).getByPlaceholderText('Send a message to your avatar'), 'Write a summary');
    await user.click(within(tool).getByTestId('document-avatar-send'));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/documents/avatar-output')).toBe(true));
    expect(calls.find((c) => c.url === '/api/documents/avatar-output')!.body).toEqual({ kind: 'avatar', avatar_id: 21, prompt: 'Write a summary', document_id: 3 });
    expect(await screen.findByTestId('document-generating')).toBeInTheDocument();
    expect(screen.queryByTestId('document-voice')).toBeNull();
    act(() => socket.emit('document_output', frame('', { done: true, status: 'done', content: 'The summary.' })));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/documents/generations/50/applied')).toBe(true));
    expect(generated()).toEqual(['The summary.']);

    // The voice goes with the other tools too.
    const prompt = screen.getByTestId('document-prompt-tool');
    await user.type(within(prompt).getByPlaceholderText('Insert your instruction!'), 'Shorter');
    await user.click(within(prompt).getByTestId('document-prompt-generate'));
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/documents/avatar-output')).toHaveLength(2));
    expect(calls.filter((c) => c.url === '/api/documents/avatar-output')[1].body).toEqual({ kind: 'prompt', avatar_id: 21, prompt: 'Shorter', document_id: 3 });
  });

  it('keeps the partial text when the provider fails, with a notice, and still saves it', async () => {
    const { calls } = routes();
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/3'));
    const user = await openTools();
    await user.type(screen.getByPlaceholderText('Insert your instruction!'), 'Write');
    await user.click(screen.getByTestId('document-prompt-generate'));
    await screen.findByTestId('document-generating');
    act(() => socket.emit('document_output', frame('Half of it\n\nand mo')));
    act(() => socket.emit('document_output', frame('', { done: true, status: 'failed', error_code: 'provider_error', content: 'Half of it\n\nand more' })));
    expect(await screen.findByText('The answer stopped before it was finished. What was written so far is kept.')).toBeInTheDocument();
    expect(generated()).toEqual(['Half of it', 'and more']);
    await waitFor(() => expect(writes(calls).slice(1)).toEqual(['PUT /api/documents', 'POST /api/documents/generations/50/applied']));
  });

  it('Stop (the button, or Esc) ends the generation on the server: its text stays, is saved, and a Stopped note says so', async () => {
    const { calls } = routes({
      'POST /api/documents/generations/50/stop': () => ({ body: generationOf({ status: 'stopped', content: 'Half of it\n\nand mo' }) }),
    });
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/3'));
    const user = await openTools();
    await user.type(screen.getByPlaceholderText('Insert your instruction!'), 'Write');
    await user.click(screen.getByTestId('document-prompt-generate'));
    await screen.findByTestId('document-generating');
    act(() => socket.emit('document_output', frame('Half of it\n\nand mo')));
    await user.click(screen.getByTestId('document-prompt-stop'));
    expect(await screen.findByText('Stopped. What was written so far is kept.')).toBeInTheDocument();
    expect(generated()).toEqual(['Half of it', 'and mo']);
    await waitFor(() => expect(writes(calls).slice(1)).toEqual(['POST /api/documents/generations/50/stop', 'PUT /api/documents', 'POST /api/documents/generations/50/applied']));
    expect(screen.queryByTestId('document-generating')).toBeNull();
    expect(screen.getByTestId('document-prompt-generate')).toBeInTheDocument();
    // The end frame arriving after the Stop's answer changes nothing.
    act(() => socket.emit('document_output', frame('', { done: true, status: 'stopped', content: 'Half of it\n\nand mo' })));
    expect(writes(calls).filter((w) => w.endsWith('/applied'))).toHaveLength(1);

    // Esc, in Spanish; here the end frame comes first (the stop's answer is the same generation).
    await i18n.changeLanguage('es');
    await user.type(screen.getByPlaceholderText('¡Escribe tu instrucción!'), 'Otra');
    await user.click(screen.getByTestId('document-prompt-generate'));
    await screen.findByTestId('document-generating');
    expect(screen.getByTestId('document-stop')).toHaveTextContent('Detener');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(writes(calls).filter((w) => w.endsWith('/stop'))).toHaveLength(2));
    act(() => socket.emit('document_output', frame('', { done: true, status: 'stopped', content: 'Half of it\n\nand mo' })));
    expect(await screen.findByText('Detenido. Lo escrito hasta ahora se conserva.')).toBeInTheDocument();
  });

  it("says the words are spent (412 words_exhausted) and lets the user try again, in Spanish too", async () => {
    await i18n.changeLanguage('es');
    routes({ 'POST /api/documents/avatar-output': () => ({ status: 412, body: { error: 'words_exhausted', message: 'You have no words left. Get a subscription or contact support to keep creating content.' } }) });
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/3'));
    const user = await openTools();
    await user.type(screen.getByPlaceholderText('¡Escribe tu instrucción!'), 'Escribe');
    await user.click(screen.getByTestId('document-prompt-generate'));
    expect(await screen.findByText('No te quedan palabras. Consigue una suscripción o contacta a soporte para seguir creando contenido.')).toBeInTheDocument();
    expect(screen.queryByTestId('document-generating')).toBeNull();
    // Not sent away to /sorry: the editor stays.
    expect(screen.getByTestId('location')).toHaveTextContent('/documents/3');
    expect(screen.getByTestId('document-prompt-generate')).toBeEnabled();
  });

  it('creates a new document first, so the generation belongs to it', async () => {
    const { calls } = routes({
      'POST /api/documents': (init) => ({ status: 201, body: record({ document_id: 11, ...JSON.parse(String(init.body)) }) }),
      'POST /api/documents/avatar-output': () => ({ status: 202, body: { generation: generationOf({ document_id: 11 }) } }),
    });
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/new'));
    const user = await openTools();
    await user.type(screen.getByPlaceholderText('Insert your instruction!'), 'Start');
    await user.click(screen.getByTestId('document-prompt-generate'));
    await waitFor(() => expect(writes(calls)).toEqual(['POST /api/documents', 'POST /api/documents/avatar-output']));
    expect(calls.find((c) => c.url === '/api/documents/avatar-output')!.body).toMatchObject({ kind: 'prompt', document_id: 11 });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/documents/11'));
    // A frame that came before the POST's answer is not lost.
    act(() => socket.emit('document_output', { ...frame('', { done: true, status: 'done', content: 'Begun.' }), document_id: 11 }));
    await waitFor(() => expect(generated()).toEqual(['Begun.']));
  });

  it('applies a template from the picker with its fields', async () => {
    const template = {
      template_id: 5,
      name: 'Blog post',
      description: 'A post for the blog',
      content: null,
      fields: [{ name: 'topic', label: 'topic', type: 'text', options: [], value: null, order: 1 }],
    };
    const { calls } = routes({ 'GET /api/templates': () => ({ body: { templates: [template], total: 1, page: 1, pageSize: 24 } }) });
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/3'));
    const user = await openTools();
    const tool = screen.getByTestId('document-template-tool');
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/templates'))).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    fireEvent.click(within(tool).getByTestId('document-template-select'));
    fireEvent.click(await screen.findByRole('option', { name: 'Blog post', hidden: true }));
    const form = await within(tool).findByTestId('apply-form');
    expect(within(form).getByTestId('apply-generate')).toBeDisabled();
    await user.type(within(form).getByLabelText(/Topic/), 'Trail shoes');
    await user.click(within(form).getByTestId('apply-generate'));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/documents/avatar-output')).toBe(true));
    expect(calls.find((c) => c.url === '/api/documents/avatar-output')!.body).toEqual({ kind: 'template', template_id: 5, values: { topic: 'Trail shoes' }, document_id: 3, document_text: 'Hello' });
  });

  it('offers Super Fetch only when it is on and in Personal, and sends its inputs with the file as multipart', async () => {
    // Switched-off features take their sections with them (the server would refuse them).
    const first = renderScreen(<DocumentEditorPage />, editorRoute('/documents/3', { super_fetch: 'false', templates_enabled: 'false', avatars_enabled: 'false' }));
    routes();
    await openTools();
    expect(screen.getByTestId('document-prompt-tool')).toBeInTheDocument();
    for (const tool of ['document-super-fetch-tool', 'document-template-tool', 'document-avatar-tool']) expect(screen.queryByTestId(tool)).toBeNull();
    first.unmount();

    const { calls } = routes();
    const sent: FormData[] = [];
    const json = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
      if (init.body instanceof FormData) {
        sent.push(init.body);
        return new Response(JSON.stringify({ generation: generationOf({ kind: 'super_fetch' }) }), { status: 202, headers: { 'Content-Type': 'application/json' } });
      }
      return json(input, init);
    });
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/3', { super_fetch: 'true' }));
    const user = await openTools();
    const tool = screen.getByTestId('document-super-fetch-tool');
    await user.click(within(tool).getByTestId('document-super-fetch-generate'));
    expect(within(tool).getAllByText("The input can't be empty")).toHaveLength(6);
    expect(sent).toHaveLength(0);
    for (const key of ['task', 'topic', 'target', 'person', 'tone', 'format']) fireEvent.change(within(tool).getByTestId(`document-super-fetch-${key}`), { target: { value: `my ${key}` } });
    fireEvent.change(tool.querySelector('input[type=file]')!, { target: { files: [new File(['brief'], 'brief.txt', { type: 'text/plain' })] } });
    await user.click(within(tool).getByTestId('document-super-fetch-generate'));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(JSON.parse(String(sent[0].get('data')))).toEqual({
      kind: 'super_fetch',
      inputs: { task: 'my task', topic: 'my topic', target: 'my target', person: 'my person', tone: 'my tone', format: 'my format' },
      document_id: 3,
      document_text: 'Hello',
    });
    expect((sent[0].get('file') as File).name).toBe('brief.txt');
    expect(await screen.findByTestId('document-generating')).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/api/documents/avatar-output')).toBe(false);
  });

  it('offers an answer written while away: Insert appends it, saves and marks it applied; Dismiss only marks it', async () => {
    const { calls } = routes({
      'GET /api/documents/3/generations': () => ({ body: { generations: [generationOf({ status: 'done', content: 'Away text\n\nMore' }), generationOf({ generation_id: 51, status: 'failed', content: 'Partial' }), generationOf({ generation_id: 52, status: 'failed', content: '' })] } }),
      'POST /api/documents/generations/51/applied': () => ({ body: generationOf({ generation_id: 51, applied: true }) }),
    });
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/3'));
    const banners = await screen.findAllByTestId('document-generation-away');
    // A failure with no text has nothing to offer.
    expect(banners).toHaveLength(2);
    expect(banners[0]).toHaveTextContent('An answer was written while you were away');
    expect(banners[0]).toHaveTextContent('Away text');
    expect(calls.find((c) => c.url.startsWith('/api/documents/3/generations'))!.url).toContain('unapplied=true');
    const user = userEvent.setup({ delay: null });
    await user.click(within(banners[1]).getByTestId('document-generation-dismiss'));
    await waitFor(() => expect(screen.getAllByTestId('document-generation-away')).toHaveLength(1));
    expect(writes(calls)).toEqual(['POST /api/documents/generations/51/applied']);
    expect(generated()).toEqual([]);
    await user.click(screen.getByTestId('document-generation-insert'));
    await waitFor(() => expect(screen.queryByTestId('document-generation-away')).toBeNull());
    expect(generated()).toEqual(['Away text', 'More']);
    expect(writes(calls).slice(1)).toEqual(['PUT /api/documents', 'POST /api/documents/generations/50/applied']);
  });

  it('resumes a generation still streaming after a reload: its text so far, then its frames (in Spanish)', async () => {
    await i18n.changeLanguage('es');
    const { calls } = routes({ 'GET /api/documents/3/generations': () => ({ body: { generations: [generationOf({ content: 'So far\n\nhal' })] } }) });
    renderScreen(<DocumentEditorPage />, editorRoute('/documents/3'));
    expect(await screen.findByTestId('document-generating')).toHaveTextContent('está buscando una respuesta...');
    await waitFor(() => expect(generated()).toEqual(['So far', 'hal']));
    expect(screen.queryByTestId('document-generation-away')).toBeNull();
    act(() => socket.emit('document_output', frame('f')));
    await waitFor(() => expect(generated()).toEqual(['So far', 'half']));
    act(() => socket.emit('document_output', frame('', { done: true, status: 'done', content: 'So far\n\nhalf and all' })));
    await waitFor(() => expect(writes(calls)).toEqual(['PUT /api/documents', 'POST /api/documents/generations/50/applied']));
    expect(generated()).toEqual(['So far', 'half and all']);
    expect(screen.queryByTestId('document-generating')).toBeNull();
  });
});

describe('sign-out', () => {
  it("clears the documents' local drafts and generation records, nothing else", () => {
    window.localStorage.setItem('pluma.documentDraft.7.personal.3', '{}');
    window.localStorage.setItem('pluma.documentDraft.7.personal.new', '{}');
    window.localStorage.setItem('pluma.documentGeneration.50', '[]');
    window.localStorage.setItem('lang', 'es');
    clearLocalDocumentData();
    expect(Object.keys(window.localStorage)).toEqual(['lang']);
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

describe('Prompt tool web search in an organization', () => {
  afterEach(() => organizationStore.set(null));

  it("offers the globe where the active organization has its own search provider (the app has none), and not in Personal", async () => {
    const { PromptTool } = await import('./PromptTool');
    const onGenerate = vi.fn(async () => true);
    stubFetch({ 'GET /api/organizations': () => ({ body: { organizations: [{ organization_id: 5, name: 'Acme', web_search: true }], total: 1 } }) });
    const tool = <PromptTool busy={false} onGenerate={onGenerate} stop={{ onStop: () => undefined, stopping: false }} />;
    const personal = renderScreen(tool, { session: fakeSession(buildUser()) });
    await screen.findByTestId('document-prompt-tool');
    expect(screen.queryByTestId('document-web-search')).toBeNull();
    personal.unmount();

    organizationStore.set({ organization_id: 5, name: 'Acme' });
    renderScreen(tool, { session: fakeSession(buildUser()) });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('switch', { name: 'Search the web and cite the pages' }));
    await user.type(screen.getByPlaceholderText('Insert your instruction!'), 'Fern news');
    await user.click(screen.getByTestId('document-prompt-generate'));
    expect(onGenerate).toHaveBeenCalledWith({ kind: 'prompt', prompt: 'Fern news', searchOnInternet: true });
  });
});
