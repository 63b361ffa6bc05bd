import { render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FirstPaintDone, removeFirstPaint } from './remove-first-paint';

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
});
