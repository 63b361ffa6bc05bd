import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

function html(source: string) {
  const box = document.createElement('div');
  box.append(renderMarkdown(source));
  return box.innerHTML;
}

describe('renderMarkdown', () => {
  it('renders headings, paragraphs, lists, code and emphasis', () => {
    expect(html('### Shade lovers\n\nHostas and **ferns** like *shade*.\nAlso `moss`.\n\n- one\n- two\n\n1. first\n2. second')).toBe(
      '<p class="pw-md-heading"><strong>Shade lovers</strong></p><p>Hostas and <strong>ferns</strong> like <em>shade</em>.<br>Also <code>moss</code>.</p>' +
        '<ul><li>one</li><li>two</li></ul><ol><li>first</li><li>second</li></ol>',
    );
    expect(html('```\nconst a = 1 < 2;\n```')).toBe('<pre><code>const a = 1 &lt; 2;</code></pre>');
  });

  it('keeps HTML from the model as text and links only to http(s)', () => {
    const box = document.createElement('div');
    box.append(renderMarkdown('<img src=x onerror="alert(1)"> [safe](https://example.com/a) [bad](javascript:alert(1))'));
    expect(box.querySelector('img')).toBeNull();
    expect(box.textContent).toContain('<img src=x onerror="alert(1)">');
    const links = box.querySelectorAll('a');
    expect(links).toHaveLength(1);
    expect(links[0].getAttribute('href')).toBe('https://example.com/a');
    expect(links[0].rel).toBe('noopener noreferrer nofollow');
    expect(box.textContent).toContain('[bad](javascript:alert(1))');
  });

  it('leaves a lone asterisk or underscore alone', () => {
    expect(html('2 * 3 and snake_case_name')).toBe('<p>2 * 3 and snake_case_name</p>');
  });
});
