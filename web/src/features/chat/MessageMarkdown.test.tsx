import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

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

const { MessageMarkdown } = await import('./MessageMarkdown');

const wrap = (content: string) => (
  <MantineProvider>
    <MessageMarkdown content={content} />
  </MantineProvider>
);

describe('MessageMarkdown', () => {
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
});
