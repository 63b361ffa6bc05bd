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

describe('renderMarkdown tables (issue 30 item 5)', () => {
  it('renders a GFM table with its alignments, escaped pipes and short or long rows', () => {
    expect(html('Prices:\n\n| Plant | Light | Price |\n| :--- | :-: | --: |\n| Fern | **shade** | 4 |\n| a \\| b | sun\n| x | y | z | extra |')).toBe(
      '<p>Prices:</p><div class="pw-md-table"><table><thead><tr><th style="text-align: left;">Plant</th><th style="text-align: center;">Light</th><th style="text-align: right;">Price</th></tr></thead>' +
        '<tbody><tr><td style="text-align: left;">Fern</td><td style="text-align: center;"><strong>shade</strong></td><td style="text-align: right;">4</td></tr>' +
        '<tr><td style="text-align: left;">a | b</td><td style="text-align: center;">sun</td><td style="text-align: right;"></td></tr>' +
        '<tr><td style="text-align: left;">x</td><td style="text-align: center;">y</td><td style="text-align: right;">z</td></tr></tbody></table></div>',
    );
    // The table ends at a blank line; what follows is a paragraph again.
    expect(html('a | b\n--- | ---\n1 | 2\n\nafter')).toBe(
      '<div class="pw-md-table"><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table></div><p>after</p>',
    );
  });

  it('keeps hostile cells as text: no HTML, no script links, no attribute injection', () => {
    const box = document.createElement('div');
    box.append(
      renderMarkdown(
        '| <img src=x onerror=alert(1)> | [x](javascript:alert(1)) |\n|---|---|\n| <script>alert(2)</script> | " onmouseover="alert(3) |\n| [ok](https://example.com/"><b>) | `</td><td>` |',
      ),
    );
    expect(box.querySelectorAll('img, script, b')).toHaveLength(0);
    expect(box.querySelectorAll('th')).toHaveLength(2);
    expect(box.querySelectorAll('td')).toHaveLength(4);
    const cells = [...box.querySelectorAll('th, td')].map((cell) => cell.textContent);
    expect(cells).toEqual(['<img src=x onerror=alert(1)>', '[x](javascript:alert(1))', '<script>alert(2)</script>', '" onmouseover="alert(3)', 'ok', '</td><td>']);
    for (const cell of box.querySelectorAll('th, td')) expect([...cell.attributes].map((a) => a.name).filter((name) => name !== 'style')).toEqual([]);
    const links = box.querySelectorAll('a');
    expect(links).toHaveLength(1);
    expect(links[0].getAttribute('href')).toBe('https://example.com/"><b>');
  });

  it('leaves pipes that are not a table as text', () => {
    expect(html('a | b\nno delimiter here')).toBe('<p>a | b<br>no delimiter here</p>');
    expect(html('| a | b |\n| --- |\n| 1 | 2 |')).toBe('<p>| a | b |<br>| --- |<br>| 1 | 2 |</p>');
    const wide = `|${'c|'.repeat(30)}\n|${'-|'.repeat(30)}`;
    expect(html(wide)).not.toContain('<table');
  });
});
