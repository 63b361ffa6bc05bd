// The tutorials screens (spec part 2 §2 "Tutorials"; issue 15 item 5) in English and Spanish against a
// stubbed API: the list by language (the UI's first) with thumbnails or the placeholder, the empty state,
// the player (embed for YouTube/Vimeo only, <video> otherwise, nothing for a hostile link), and the staff
// admin's New / Edit / Delete / Move up / Move down.
import type { Tutorial, TutorialList } from '@pluma/common/tutorials';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { buildUser, fakeSession, renderScreen, setLanguage, stubFetch } from '../../test/render';
import { tutorialsFeature } from './feature';
import TutorialPage from './TutorialPage';
import TutorialsPage from './TutorialsPage';

const staff = { abilities: { edit: true, delete: true, reorder: true } };
const tutorial = (overrides: Partial<Tutorial> = {}): Tutorial => ({
  tutorial_id: 1,
  name: 'Getting started',
  description: 'Your first chat',
  language: 'en',
  src: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  thumbnail: 'https://img.example.com/one.png',
  thumbnail_file_id: null,
  order: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  abilities: { edit: false, delete: false, reorder: false },
  ...overrides,
});
const listOf = (tutorials: Tutorial[], overrides: Partial<TutorialList> = {}): TutorialList => ({
  tutorials,
  total: tutorials.length,
  page: 1,
  pageSize: 24,
  language: 'en',
  canManage: false,
  ...overrides,
});
const languageOf = (url: string) => new URL(url, 'http://x').searchParams.get('language');
const show = (ui: React.ReactElement, route: string, path?: string) =>
  renderScreen(<Suspense fallback={null}>{ui}</Suspense>, { session: fakeSession(buildUser()), route, path });

afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('tutorials tab', () => {
  it('is switched by tutorials_enabled and leads to /tutorials', () => {
    expect(tutorialsFeature.tabs?.[0]).toMatchObject({ to: '/tutorials', configKey: 'tutorials_enabled', labelKey: 'breadcrumbs.tutorials' });
    expect(tutorialsFeature.routes?.map((r) => r.path)).toEqual(['/tutorials', '/tutorials/:tutorialId']);
  });
});

describe('tutorials list', () => {
  it('lists the UI language with thumbnails (placeholder when missing or broken) and links to each tutorial; no staff controls for users', async () => {
    const { calls } = stubFetch({
      'GET /api/tutorials': () => ({ body: listOf([tutorial(), tutorial({ tutorial_id: 2, name: 'No picture', thumbnail: null })]) }),
    });
    show(<TutorialsPage />, '/tutorials');
    const cards = await screen.findAllByTestId('tutorial-card');
    expect(screen.getByRole('heading', { name: 'Tutorials' })).toBeInTheDocument();
    expect(languageOf(calls[0].url)).toBe('en');
    expect(within(cards[0]).getByRole('link', { name: /Getting started/ })).toHaveAttribute('href', '/tutorials/1');
    const image = within(cards[0]).getByTestId('tutorial-thumbnail');
    expect(image).toHaveAttribute('src', 'https://img.example.com/one.png');
    expect(within(cards[1]).getByTestId('tutorial-thumbnail-fallback')).toBeInTheDocument();
    fireEvent.error(image);
    expect(await within(cards[0]).findByTestId('tutorial-thumbnail-fallback')).toBeInTheDocument();
    expect(screen.queryByTestId('new-tutorial')).toBeNull();
    expect(screen.queryByTestId('move-up')).toBeNull();
    expect(screen.queryByTestId('edit-tutorial')).toBeNull();
  });

  it('in Spanish starts with Spanish tutorials, switches language, and shows the empty state', async () => {
    await setLanguage('es');
    const { calls } = stubFetch({
      'GET /api/tutorials': (_, url) => ({ body: languageOf(url) === 'es' ? listOf([tutorial({ name: 'Primeros pasos', language: 'es' })], { language: 'es' }) : listOf([]) }),
    });
    show(<TutorialsPage />, '/tutorials');
    expect(await screen.findByText('Primeros pasos')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Tutoriales' })).toBeInTheDocument();
    expect(languageOf(calls[0].url)).toBe('es');
    fireEvent.click(screen.getByText('Inglés'));
    expect(await screen.findByTestId('tutorials-empty')).toHaveTextContent('Aún no hay tutoriales en este idioma.');
    expect(languageOf(calls.at(-1)!.url)).toBe('en');
  });

  it('a staff admin creates a tutorial: the link is checked in the browser first (javascript: refused), then POSTed', async () => {
    const { calls } = stubFetch({
      'GET /api/tutorials': () => ({ body: listOf([], { canManage: true }) }),
      'POST /api/tutorials': () => ({ status: 201, body: tutorial({ tutorial_id: 5, name: 'Tour', ...staff }) }),
    });
    show(<TutorialsPage />, '/tutorials');
    fireEvent.click(await screen.findByTestId('new-tutorial'));
    const modal = await screen.findByTestId('tutorial-form-modal');
    fireEvent.change(await within(modal).findByTestId('tutorial-name'), { target: { value: 'Tour' } });
    fireEvent.change(within(modal).getByTestId('tutorial-src'), { target: { value: 'javascript:alert(1)' } });
    fireEvent.click(within(modal).getByTestId('tutorial-save'));
    await waitFor(() => expect(within(modal).getByTestId('tutorial-src')).toHaveAttribute('aria-invalid', 'true'));
    expect(modal).toHaveTextContent('The video must be an http:// or https:// link');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(within(modal).getByTestId('tutorial-src'), { target: { value: 'https://vimeo.com/76979871' } });
    fireEvent.click(within(modal).getByTestId('tutorial-save'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        name: 'Tour',
        description: '',
        language: 'en',
        src: 'https://vimeo.com/76979871',
        thumbnail: '',
        thumbnail_file_id: null,
      }),
    );
    expect(await screen.findByText('Tutorial saved')).toBeInTheDocument();
  });

  it('a staff admin edits (PUT with the id; the server’s field message shown) and deletes after confirming', async () => {
    let refuse = true;
    const { calls } = stubFetch({
      'GET /api/tutorials': () => ({ body: listOf([tutorial(staff)], { canManage: true }) }),
      'PUT /api/tutorials': () =>
        refuse
          ? ((refuse = false), { status: 400, body: { error: 'validation', message: 'Bad', details: { thumbnail: 'The thumbnail must be an http:// or https:// image address.' } } })
          : { body: tutorial({ ...staff, name: 'Renamed' }) },
      'DELETE /api/tutorials/1': () => ({ body: { deleted: true } }),
    });
    show(<TutorialsPage />, '/tutorials');
    const [card] = await screen.findAllByTestId('tutorial-card');
    fireEvent.click(within(card).getByRole('button', { name: 'Edit Getting started' }));
    const modal = await screen.findByTestId('tutorial-form-modal');
    const name = await within(modal).findByTestId('tutorial-name');
    expect(name).toHaveValue('Getting started');
    expect(within(modal).getByTestId('tutorial-thumbnail-url')).toHaveValue('https://img.example.com/one.png');
    fireEvent.change(name, { target: { value: 'Renamed' } });
    fireEvent.click(within(modal).getByTestId('tutorial-save'));
    expect(await within(modal).findByText('The thumbnail must be an http:// or https:// image address.')).toBeInTheDocument();
    fireEvent.click(within(modal).getByTestId('tutorial-save'));
    expect(await screen.findByText('Tutorial saved')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toMatchObject({ tutorial_id: 1, name: 'Renamed', src: tutorial().src });

    fireEvent.click(within(card).getByRole('button', { name: 'Delete Getting started' }));
    const confirm = await screen.findByTestId('delete-tutorial-modal');
    await waitFor(() => expect(confirm).toHaveTextContent('This action cannot be reversed.'));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete', hidden: true }));
    expect(await screen.findByText('Tutorial deleted')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url.startsWith('/api/tutorials/1'))).toBe(true);
  });

  it('a staff admin moves tutorials with Up / Down (the ends disabled); the pair is sent in its new order, focus stays and the move is announced', async () => {
    let order = [1, 2, 3];
    const rows = { 1: 'One', 2: 'Two', 3: 'Three' } as Record<number, string>;
    const { calls } = stubFetch({
      'GET /api/tutorials': () => ({ body: listOf(order.map((id, i) => tutorial({ tutorial_id: id, name: rows[id], order: i, ...staff })), { canManage: true }) }),
      'PUT /api/tutorials/order': (init) => {
        const ids = JSON.parse(String(init.body)).ids as number[];
        const places = ids.map((id) => order.indexOf(id)).sort();
        const next = [...order];
        ids.forEach((id, i) => (next[places[i]] = id));
        order = next;
        return { body: { tutorials: [] } };
      },
    });
    show(<TutorialsPage />, '/tutorials');
    const cards = await screen.findAllByTestId('tutorial-card');
    expect(within(cards[0]).getByRole('button', { name: 'Move One up' })).toBeDisabled();
    expect(within(cards[2]).getByRole('button', { name: 'Move Three down' })).toBeDisabled();
    const up = within(cards[1]).getByRole('button', { name: 'Move Two up' });
    up.focus();
    fireEvent.click(up);
    await waitFor(() => expect(screen.getAllByTestId('tutorial-card').map((c) => c.getAttribute('aria-label'))).toEqual(['Two', 'One', 'Three']));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ ids: [2, 1] });
    expect(screen.getByTestId('tutorials-announcement')).toHaveTextContent('Two moved up.');
    // Two is first now: its Up is disabled, so focus goes to its Down.
    await waitFor(() => expect(document.activeElement).toHaveAttribute('data-move', '2-down'));
    fireEvent.click(screen.getByRole('button', { name: 'Move One down' }));
    await waitFor(() => expect(screen.getAllByTestId('tutorial-card').map((c) => c.getAttribute('aria-label'))).toEqual(['Two', 'Three', 'One']));
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ ids: [3, 1] });
  });
});

describe('tutorials list across pages', () => {
  // The server's pages are 24 long; a page size of 2 here keeps the lists short.
  let order: number[];
  const names = { 1: 'A', 2: 'B', 3: 'C' } as Record<number, string>;
  const pageOf = (url: string) => Number(new URL(url, 'http://x').searchParams.get('page'));
  const routes = () => ({
    'GET /api/tutorials': (_: RequestInit, url: string) => {
      const page = pageOf(url);
      const ids = order.slice((page - 1) * 2, page * 2);
      return { body: listOf(ids.map((id) => tutorial({ tutorial_id: id, name: names[id], ...staff })), { total: order.length, page, pageSize: 2, canManage: true }) };
    },
    'PUT /api/tutorials/order': (init: RequestInit) => {
      const ids = JSON.parse(String(init.body)).ids as number[];
      const places = ids.map((id) => order.indexOf(id)).sort();
      const next = [...order];
      ids.forEach((id, i) => (next[places[i]] = id));
      order = next;
      return { body: { tutorials: [] } };
    },
    'DELETE /api/tutorials/3': () => {
      order = order.filter((id) => id !== 3);
      return { body: { deleted: true } };
    },
  });
  const shown = () => screen.getAllByTestId('tutorial-card').map((c) => c.getAttribute('aria-label'));

  it('moves the first tutorial of a page above the last one of the page before, and follows it there', async () => {
    order = [1, 2, 3];
    const { calls } = stubFetch(routes());
    show(<TutorialsPage />, '/tutorials');
    await screen.findAllByTestId('tutorial-card');
    fireEvent.click(within(screen.getByTestId('tutorials-pagination')).getByRole('button', { name: '2' }));
    await waitFor(() => expect(shown()).toEqual(['C']));
    expect(screen.getByRole('button', { name: 'Move C down' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Move C up' }));
    await waitFor(() => expect(shown()).toEqual(['A', 'C']));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ ids: [3, 2] });
  });

  it('steps back a page when its last tutorial is deleted', async () => {
    order = [1, 2, 3];
    stubFetch(routes());
    show(<TutorialsPage />, '/tutorials');
    await screen.findAllByTestId('tutorial-card');
    fireEvent.click(within(screen.getByTestId('tutorials-pagination')).getByRole('button', { name: '2' }));
    await waitFor(() => expect(shown()).toEqual(['C']));
    fireEvent.click(screen.getByRole('button', { name: 'Delete C' }));
    const confirm = await screen.findByTestId('delete-tutorial-modal');
    await waitFor(() => expect(confirm).toHaveTextContent('This action cannot be reversed.'));
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete', hidden: true }));
    await waitFor(() => expect(shown()).toEqual(['A', 'B']));
    expect(screen.queryByTestId('tutorials-empty')).toBeNull();
  });
});

describe('tutorial page', () => {
  it('plays a YouTube link in the privacy-enhanced embed, titled, with the description and Back', async () => {
    stubFetch({ 'GET /api/tutorials/1': () => ({ body: tutorial({ src: 'https://youtu.be/dQw4w9WgXcQ?autoplay=1' }) }) });
    show(<TutorialPage />, '/tutorials/1', '/tutorials/:tutorialId');
    const frame = await screen.findByTestId('tutorial-embed');
    expect(frame).toHaveAttribute('src', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    expect(frame).toHaveAttribute('title', 'Video: Getting started');
    expect(frame.getAttribute('sandbox')).not.toContain('allow-top-navigation');
    expect(screen.getByRole('heading', { name: 'Getting started' })).toBeInTheDocument();
    expect(screen.getByTestId('tutorial-description')).toHaveTextContent('Your first chat');
    expect(screen.getByTestId('tutorial-back')).toHaveAttribute('href', '/tutorials');
  });

  it('plays a video file in <video controls>; in Spanish', async () => {
    await setLanguage('es');
    stubFetch({ 'GET /api/tutorials/1': () => ({ body: tutorial({ src: 'https://cdn.example.com/tour.mp4' }) }) });
    show(<TutorialPage />, '/tutorials/1', '/tutorials/:tutorialId');
    const video = await screen.findByTestId('tutorial-video');
    expect(video).toHaveAttribute('src', 'https://cdn.example.com/tour.mp4');
    expect(video).toHaveAttribute('controls');
    expect(screen.queryByTestId('tutorial-embed')).toBeNull();
    expect(screen.getByTestId('tutorial-back')).toHaveTextContent('Volver a los tutoriales');
  });

  it('never renders a hostile link, and says when a tutorial does not exist', async () => {
    stubFetch({
      'GET /api/tutorials/1': () => ({ body: tutorial({ src: 'javascript:alert(1)' }) }),
      'GET /api/tutorials/2': () => ({ status: 404, body: { error: 'not_found', message: 'Not found.' } }),
    });
    const first = show(<TutorialPage />, '/tutorials/1', '/tutorials/:tutorialId');
    expect(await screen.findByTestId('tutorial-unplayable')).toHaveTextContent('This video cannot be played here.');
    expect(document.querySelector('iframe, video')).toBeNull();
    first.unmount();
    show(<TutorialPage />, '/tutorials/2', '/tutorials/:tutorialId');
    expect(await screen.findByTestId('tutorial-not-found')).toHaveTextContent('This tutorial does not exist or was removed.');
  });
});
