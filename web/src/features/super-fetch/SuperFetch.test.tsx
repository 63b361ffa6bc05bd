// The Super Fetch page (issue 14 item 4): the six required inputs ("The input can't be empty"), outputs
// from 1 down to 0 (0 disables Generate), results streamed in by `super_fetch_outputs` (also frames that
// arrive before the POST's answer), copy and rating, the feedback form (text required before a modified
// prompt), reset and clean, the xlsx export read back, a file uploaded as context, EN/ES, and nothing in
// organization scope. Issue 30: Stop (all, one, Esc) and the stopped mark; outputs rendered as markdown,
// copied as HTML and clean text, exported as clean text.
import { SUPER_FETCH_INPUTS, type SuperFetchOutput, type SuperFetchRun } from '@pluma/common/super-fetch';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { organizationStore } from '../../api/organization';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch, stubObjectUrls } from '../../test/render';
import SuperFetchPage from './SuperFetchPage';
import { setupFakeSocket } from '../../test/fake-socket';

const socket = setupFakeSocket();
/** Files the page saved (ui/download.ts): the blob given an object URL, the name of the link clicked for it. */
const downloads: { blob: Blob; name: string }[] = [];

const AVATAR = { avatar_id: 40, name: 'Super Fetch', super_fetch_assistant: true };
const INPUTS = { task: 'Write a caption', topic: 'Trail shoes', target: 'Runners', person: 'A coach', tone: 'Warm', format: 'AIDA', examples: '', callToAction: '', prompt: '' };

function output(overrides: Partial<SuperFetchOutput> = {}): SuperFetchOutput {
  return {
    output_id: 1,
    run_id: 9,
    position: 1,
    content: null,
    status: 'pending',
    liked: null,
    error_code: null,
    createdAt: '2026-03-05T09:07:00.000Z',
    updatedAt: '2026-03-05T09:07:00.000Z',
    abilities: { rate: false, stop: true },
    ...overrides,
  };
}
function run(overrides: Partial<SuperFetchRun> = {}): SuperFetchRun {
  return {
    run_id: 9,
    assistant_id: 40,
    inputs: INPUTS,
    feedback: null,
    prompt: 'Task: Write a caption',
    file: null,
    requested: 1,
    outputs: [output()],
    createdAt: '2026-03-05T09:07:00.000Z',
    ...overrides,
  };
}
const done = (id: number, position: number, content: string, liked: boolean | null = null) =>
  output({ output_id: id, position, content, status: 'done', liked, abilities: { rate: true, stop: false } });

/** jsdom's Blob has no arrayBuffer(). */
const bytesOf = (blob: Blob) =>
  new Promise<ArrayBuffer>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });

const session = () => fakeSession(buildUser());
const user = () => userEvent.setup({ delay: null });

async function fillRequired(u: ReturnType<typeof user>) {
  // Pasted, not typed key by key: six fields typed one key at a time take seconds on a busy machine.
  for (const key of ['task', 'topic', 'target', 'person', 'tone', 'format'] as const) {
    await u.click(screen.getByTestId(`super-fetch-input-${key}`));
    await u.paste(INPUTS[key]);
  }
}

beforeEach(() => {
  downloads.length = 0;
  const blobs = new Map<string, Blob>();
  stubObjectUrls((blob) => (blobs.set(`blob:${blobs.size}`, blob), `blob:${blobs.size - 1}`));
  // jsdom cannot follow a download link.
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.getAttribute('href') ?? '');
    if (blob) downloads.push({ blob, name: this.download });
  });
});
afterEach(async () => {
  organizationStore.clearActive();
  await i18n.changeLanguage('en');
});

describe('Super Fetch page', () => {
  it('asks for the six required inputs, starts at 1 output and disables Generate at 0', async () => {
    const { calls } = stubFetch({
      'GET /api/avatars/super-fetch': () => ({ body: AVATAR }),
      'GET /api/super_fetch/messages/40': () => ({ body: { runs: [], total: 0 } }),
    });
    renderScreen(<SuperFetchPage />, { session: session() });
    expect(await screen.findByText('Your results will appear here.')).toBeInTheDocument();
    for (const key of SUPER_FETCH_INPUTS) expect(screen.getByTestId(`super-fetch-input-${key}`)).toBeInTheDocument();
    expect(screen.getByLabelText(/Target Audience/)).toBeRequired();
    expect(screen.getByLabelText('Call to Action')).not.toBeRequired();
    const count = screen.getByTestId('super-fetch-outputs');
    expect(count).toHaveValue('1');
    const u = user();
    await u.click(screen.getByTestId('super-fetch-generate'));
    expect(await screen.findAllByText("The input can't be empty")).toHaveLength(6);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await u.clear(count);
    await u.type(count, '0');
    expect(screen.getByTestId('super-fetch-generate')).toBeDisabled();
    // Below the minimum (0) is 0 once the field is left, never 1.
    await u.clear(count);
    await u.type(count, '-1');
    await u.tab();
    expect(count).toHaveValue('0');
    expect(screen.getByTestId('super-fetch-generate')).toBeDisabled();
    // The feedback form needs results first.
    expect(within(screen.getByTestId('super-fetch-mode')).getByRole('radio', { name: 'Feedback' })).toBeDisabled();
  });

  it('streams 3 outputs in as cards (frames before the answer too), copies and rates one', async () => {
    const pending = run({ requested: 3, outputs: [1, 2, 3].map((n) => output({ output_id: n, position: n })) });
    const { calls } = stubFetch({
      'GET /api/avatars/super-fetch': () => ({ body: AVATAR }),
      'GET /api/super_fetch/messages/40': () => ({ body: { runs: [], total: 0 } }),
      'POST /api/super_fetch/v2': () => {
        // The first frame arrives before the POST's answer.
        socket.emit('super_fetch_outputs', { run_id: 9, assistant_id: 40, stream: true, outputs: [{ output_id: 1, position: 1, delta: 'Run ' }], enhancePrompt: 'p' });
        return { status: 202, body: pending };
      },
      'POST /api/super_fetch/rate': () => ({ body: done(2, 2, 'Second take', true) }),
    });
    renderScreen(<SuperFetchPage />, { session: session() });
    await screen.findByText('Your results will appear here.');
    const u = user();
    await fillRequired(u);
    const count = screen.getByTestId('super-fetch-outputs');
    await u.clear(count);
    await u.type(count, '3');
    await u.click(screen.getByTestId('super-fetch-generate'));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ ...INPUTS, outputs: 3, assistant_id: 40, file_id: null, feedback: null }));
    await waitFor(() => expect(within(screen.getByTestId('super-fetch-output-1')).getByTestId('super-fetch-output-content')).toHaveTextContent('Run'));
    expect(within(screen.getByTestId('super-fetch-output-2')).getByTestId('super-fetch-output-content')).toHaveTextContent('Writing…');

    socket.emit('super_fetch_outputs', { run_id: 9, assistant_id: 40, stream: true, outputs: [{ output_id: 1, position: 1, delta: 'free.' }, { output_id: 2, position: 2, delta: 'Second' }], enhancePrompt: 'p' });
    // Another avatar's frames are not this page's.
    socket.emit('super_fetch_outputs', { run_id: 9, assistant_id: 41, stream: false, outputs: [done(1, 1, 'Other')], enhancePrompt: 'p' });
    socket.emit('super_fetch_outputs', { run_id: 9, assistant_id: 40, stream: false, outputs: [done(1, 1, 'Run free.'), done(2, 2, 'Second take'), done(3, 3, 'Third')], enhancePrompt: 'p' });
    const second = screen.getByTestId('super-fetch-output-2');
    await waitFor(() => expect(within(second).getByTestId('super-fetch-output-content')).toHaveTextContent('Second take'));
    expect(within(screen.getByTestId('super-fetch-output-1')).getByTestId('super-fetch-output-content')).toHaveTextContent('Run free.');

    // After userEvent.setup(), which puts in a clipboard of its own.
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await u.click(within(second).getByTestId('super-fetch-copy'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('Second take'));
    await u.click(within(second).getByTestId('super-fetch-like'));
    await waitFor(() => expect(calls.find((c) => c.url.endsWith('/rate'))?.body).toEqual({ output_id: 2, liked: true }));
    await waitFor(() => expect(within(screen.getByTestId('super-fetch-output-2')).getByTestId('super-fetch-like')).toHaveAttribute('aria-pressed', 'true'));
  });

  it('requires feedback text before a modified prompt, then sends it with the verdict and the run', async () => {
    const { calls } = stubFetch({
      'GET /api/avatars/super-fetch': () => ({ body: AVATAR }),
      'GET /api/super_fetch/messages/40': () => ({ body: { runs: [run({ outputs: [done(1, 1, 'First take')] })], total: 1 } }),
      'POST /api/super_fetch/v2': () => ({ status: 202, body: run({ run_id: 10, feedback: { input: 'Shorter', liked: true, run_id: 9 }, outputs: [output({ output_id: 5, run_id: 10 })] }) }),
    });
    renderScreen(<SuperFetchPage />, { session: session() });
    await screen.findByText('First take');
    const u = user();
    await fillRequired(u);
    await u.click(within(screen.getByTestId('super-fetch-mode')).getByRole('radio', { name: 'Feedback' }));
    await u.click(screen.getByTestId('super-fetch-generate'));
    expect(await screen.findByText('Write your feedback before asking for a modified prompt.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await u.click(within(screen.getByTestId('super-fetch-feedback-liked')).getByRole('radio', { name: 'Liked' }));
    await u.type(screen.getByTestId('super-fetch-feedback'), 'Shorter');
    await u.click(screen.getByTestId('super-fetch-generate'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ ...INPUTS, feedback: { input: 'Shorter', liked: true, run_id: 9 } }),
    );
    expect(await screen.findByTestId('super-fetch-run-10')).toHaveTextContent('with feedback');
  });

  it('resets the form, cleans the results, and exports them to {avatar}_{name}_{YYYY_MM_DD_HH_mm}.xlsx', async () => {
    const { calls } = stubFetch({
      'GET /api/avatars/super-fetch': () => ({ body: AVATAR }),
      'GET /api/super_fetch/messages/40': () => ({ body: { runs: [run({ outputs: [done(1, 1, 'First take', true), done(2, 2, 'Second take')] })], total: 1 } }),
      'DELETE /api/super_fetch/messages/40': () => ({ body: { deleted: 1 } }),
    });
    renderScreen(<SuperFetchPage />, { session: session() });
    await screen.findByText('First take');
    const u = user();
    await u.click(screen.getByTestId('super-fetch-export'));
    // The export loads exceljs on demand first: slow on a busy machine.
    await waitFor(() => expect(downloads).toHaveLength(1), { timeout: 10_000 });
    expect(downloads[0].name).toMatch(/^Super Fetch_Trail shoes_\d{4}_\d{2}_\d{2}_\d{2}_\d{2}\.xlsx$/);
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await bytesOf(downloads[0].blob));
    const sheet = book.getWorksheet('Super Fetch')!;
    expect(sheet.getRow(1).getCell(3).value).toBe('Content');
    expect([sheet.getRow(2).getCell(3).value, sheet.getRow(2).getCell(4).value, sheet.getRow(2).getCell(6).value]).toEqual(['First take', 'Liked', 'Trail shoes']);
    expect(sheet.getRow(3).getCell(3).value).toBe('Second take');

    await u.type(screen.getByTestId('super-fetch-input-task'), 'Something');
    await u.click(screen.getByTestId('super-fetch-reset'));
    expect(screen.getByTestId('super-fetch-input-task')).toHaveValue('');
    expect(await screen.findByText('Super Fetch reset')).toBeInTheDocument();
    expect(screen.getByText('First take')).toBeInTheDocument();

    await u.click(screen.getByTestId('super-fetch-clean'));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(await screen.findByText('Your results will appear here.')).toBeInTheDocument();
    expect(screen.queryByText('First take')).not.toBeInTheDocument();
  });

  it('uploads the chosen file and sends its id, in Spanish', async () => {
    await setLanguage('es');
    const { calls, fetchMock } = stubFetch({
      'GET /api/avatars/super-fetch': () => ({ body: AVATAR }),
      'GET /api/super_fetch/messages/40': () => ({ body: { runs: [], total: 0 } }),
      'POST /api/super_fetch/v2': () => ({ status: 202, body: run({ file: { file_id: 77, name: 'brief.txt', truncated: false } }) }),
    });
    const uploads: FormData[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
      if (init.body instanceof FormData) {
        uploads.push(init.body);
        return new Response(JSON.stringify({ file_id: 77, name: 'brief.txt' }), { status: 201, headers: { 'Content-Type': 'application/json' } });
      }
      return fetchMock(input, init);
    });
    renderScreen(<SuperFetchPage />, { session: session() });
    expect(await screen.findByText('Tus resultados aparecerán aquí.')).toBeInTheDocument();
    expect(screen.getByLabelText(/Público objetivo/)).toBeInTheDocument();
    const u = user();
    await u.click(screen.getByTestId('super-fetch-generate'));
    expect(await screen.findAllByText('El campo no puede estar vacío')).toHaveLength(6);
    await fillRequired(u);
    const picker = document.querySelector('input[type="file"]') as HTMLInputElement;
    expect(picker.accept).toBe('.docx,.pdf,.pptx,.txt');
    await u.upload(picker, new File(['Our shoes weigh 180 grams.'], 'brief.txt', { type: 'text/plain' }));
    await u.click(screen.getByTestId('super-fetch-generate'));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ file_id: 77 }));
    expect((uploads[0].get('file') as File).name).toBe('brief.txt');
  });

  const MARKDOWN = '### Trail shoes\n\nRun **free** with `grip`.\n\n| Model | Grams |\n| --- | --- |\n| Swift | 180 |\n\n```ts\nconst fast = true;\n```';
  const CLEAN = 'Trail shoes\n\nRun free with grip.\n\nModel\tGrams\nSwift\t180\n\nconst fast = true;';

  it('Stop (issue 30 item 1): Generate becomes Stop while outputs run; it stops them all, marks them stopped, keeps the text and frees the form at once', async () => {
    const streaming = (id: number, content: string) => output({ output_id: id, position: id, status: 'streaming', content });
    const stopped = (id: number, content: string) => output({ output_id: id, position: id, status: 'stopped', content, abilities: { rate: true, stop: false } });
    let answer: (body: unknown) => void = () => undefined;
    const { calls, fetchMock } = stubFetch({
      'GET /api/avatars/super-fetch': () => ({ body: AVATAR }),
      'GET /api/super_fetch/messages/40': () => ({ body: { runs: [run({ requested: 3, outputs: [streaming(1, 'First words'), streaming(2, 'Second words'), streaming(3, 'Third')] })], total: 1 } }),
    });
    // Each Stop's answer waits until the test gives it: the page is free before it comes.
    const original = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      if (!String(input).endsWith('/super_fetch/stop')) return original(input, init);
      calls.push({ method: 'POST', url: String(input), body: JSON.parse(String(init.body)), headers: {} });
      const body = await new Promise((resolve) => (answer = resolve));
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
    renderScreen(<SuperFetchPage />, { session: session() });
    await screen.findByText('First words');
    expect(screen.queryByTestId('super-fetch-generate')).not.toBeInTheDocument();
    const u = user();
    // One output from its card.
    await u.click(within(screen.getByTestId('super-fetch-output-3')).getByRole('button', { name: 'Stop output 3' }));
    await waitFor(() => expect(calls.find((c) => c.url.endsWith('/stop'))?.body).toEqual({ run_id: 9, output_id: 3 }));
    expect(within(screen.getByTestId('super-fetch-output-3')).getByTestId('super-fetch-output-stopped')).toHaveTextContent('Stopped');
    answer(run({ outputs: [streaming(1, 'First words'), streaming(2, 'Second words'), stopped(3, 'Third')] }));
    // The others still run: Stop stops them all.
    await u.click(screen.getByTestId('super-fetch-stop'));
    await waitFor(() => expect(calls.filter((c) => c.url.endsWith('/stop')).at(-1)?.body).toEqual({ run_id: 9, output_id: null }));
    expect(await screen.findByTestId('super-fetch-generate')).toBeEnabled();
    expect(screen.queryByTestId('super-fetch-stop')).not.toBeInTheDocument();
    for (const id of [1, 2]) expect(within(screen.getByTestId(`super-fetch-output-${id}`)).getByTestId('super-fetch-output-stopped')).toHaveTextContent('Stopped');
    answer(run({ outputs: [stopped(1, 'First words and more'), stopped(2, 'Second words'), stopped(3, 'Third')] }));
    // The saved text replaces what the page had; a late frame adds nothing to a stopped output.
    await screen.findByText('First words and more');
    socket.emit('super_fetch_outputs', { run_id: 9, assistant_id: 40, stream: true, outputs: [{ output_id: 2, position: 2, delta: ' late' }], enhancePrompt: 'p' });
    expect(within(screen.getByTestId('super-fetch-output-2')).getByTestId('super-fetch-output-content')).toHaveTextContent(/^Second words$/);
    expect(within(screen.getByTestId('super-fetch-output-1')).getByTestId('super-fetch-like')).toBeEnabled();
  });

  it('Stop in Spanish with Esc: marked "Detenido"', async () => {
    await setLanguage('es');
    const { calls } = stubFetch({
      'GET /api/avatars/super-fetch': () => ({ body: AVATAR }),
      'GET /api/super_fetch/messages/40': () => ({ body: { runs: [run({ outputs: [output({ status: 'streaming', content: 'Primeras palabras' })] })], total: 1 } }),
      'POST /api/super_fetch/stop': () => ({ body: run({ outputs: [output({ status: 'stopped', content: 'Primeras palabras', abilities: { rate: true, stop: false } })] }) }),
    });
    renderScreen(<SuperFetchPage />, { session: session() });
    await screen.findByText('Primeras palabras');
    expect(screen.getByTestId('super-fetch-stop')).toHaveTextContent('Detener');
    await user().keyboard('{Escape}');
    await waitFor(() => expect(calls.find((c) => c.url.endsWith('/stop'))?.body).toEqual({ run_id: 9, output_id: null }));
    expect(await screen.findByTestId('super-fetch-output-stopped')).toHaveTextContent('Detenido');
    expect(screen.getByTestId('super-fetch-generate')).toHaveTextContent('Generar');
  });

  it('renders an output as markdown (issue 30 item 2), copies it as HTML and clean text, and exports clean text', async () => {
    stubFetch({
      'GET /api/avatars/super-fetch': () => ({ body: AVATAR }),
      'GET /api/super_fetch/messages/40': () => ({ body: { runs: [run({ outputs: [done(1, 1, MARKDOWN)] })], total: 1 } }),
    });
    renderScreen(<SuperFetchPage />, { session: session() });
    const card = await screen.findByTestId('super-fetch-output-1');
    const content = within(card).getByTestId('super-fetch-output-content');
    await waitFor(() => expect(within(content).getByRole('heading', { name: 'Trail shoes' })).toBeInTheDocument());
    expect(within(content).getByText('free').tagName).toBe('STRONG');
    expect(within(content).getByRole('table')).toHaveTextContent('Swift');
    expect(content.textContent).not.toMatch(/###|\*\*|\| --- \||```/);

    const u = user();
    const items: Record<string, Blob>[] = [];
    class FakeClipboardItem {
      constructor(readonly parts: Record<string, Blob>) {
        items.push(parts);
      }
    }
    vi.stubGlobal('ClipboardItem', FakeClipboardItem);
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { write: vi.fn(async () => undefined), writeText }, configurable: true });
    await u.click(within(card).getByTestId('super-fetch-copy'));
    await waitFor(() => expect(items.length + writeText.mock.calls.length).toBe(1));
    expect(writeText).not.toHaveBeenCalled();
    const text = async (blob: Blob) => new TextDecoder().decode(await bytesOf(blob));
    expect(await text(items[0]['text/plain'])).toBe(CLEAN);
    const html = await text(items[0]['text/html']);
    expect(html).toContain('<strong>free</strong>');
    expect(html).toContain('<table>');

    await u.click(screen.getByTestId('super-fetch-export'));
    // The export loads exceljs on demand first: slow on a busy machine.
    await waitFor(() => expect(downloads).toHaveLength(1), { timeout: 10_000 });
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await bytesOf(downloads[0].blob));
    expect(book.getWorksheet('Super Fetch')!.getRow(2).getCell(3).value).toBe(CLEAN);
  });

  it('shows only a notice inside an organization, and calls nothing', async () => {
    organizationStore.set({ organization_id: 3, name: 'Acme' });
    const { calls } = stubFetch({});
    renderScreen(<SuperFetchPage />, { session: session() });
    expect(await screen.findByTestId('super-fetch-not-in-organization')).toHaveTextContent('only available in your personal space');
    expect(screen.queryByTestId('super-fetch-generate')).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
