import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FirstPaintDone, removeFirstPaint, SCREEN_WAIT_MS } from './remove-first-paint';

function drawFirstPaint() {
  document.documentElement.setAttribute('data-first-paint', 'en');
  const overlay = document.createElement('div');
  overlay.id = 'first-paint';
  overlay.textContent = 'Welcome back';
  document.body.append(overlay);
}

describe('the first paint leaves', () => {
  afterEach(() => removeFirstPaint());

  it('when a screen has mounted beside FirstPaintDone, attribute and overlay both', () => {
    drawFirstPaint();
    render(
      <main>
        <h1>Welcome back</h1>
        <FirstPaintDone />
      </main>,
    );
    expect(document.getElementById('first-paint')).toBeNull();
    expect(document.documentElement.hasAttribute('data-first-paint')).toBe(false);
  });

  it('quietly when the page has none', () => {
    expect(() => removeFirstPaint()).not.toThrow();
    render(<FirstPaintDone />);
    expect(document.getElementById('first-paint')).toBeNull();
  });

  it("for a signed-in screen's picture, waits for that screen, or SCREEN_WAIT_MS at most", () => {
    vi.useFakeTimers();
    try {
      drawFirstPaint();
      document.documentElement.setAttribute('data-first-paint-screen', 'conversation');
      render(<FirstPaintDone />);
      // The shell has rendered (a spinner where the messages go): the picture stays over it.
      expect(document.getElementById('first-paint')).not.toBeNull();
      vi.advanceTimersByTime(SCREEN_WAIT_MS - 1);
      expect(document.getElementById('first-paint')).not.toBeNull();
      vi.advanceTimersByTime(1);
      expect(document.getElementById('first-paint')).toBeNull();
      expect(document.documentElement.hasAttribute('data-first-paint-screen')).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
