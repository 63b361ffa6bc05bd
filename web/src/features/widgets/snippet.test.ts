// The embed snippet (contract C): its three parts from the app's origin, attribute values HTML-escaped so a
// hostile widget name or image address cannot break out of the attribute, and nothing of the owner in it.
import { describe, expect, it } from 'vitest';
import { escapeHtml, widgetSnippet } from './snippet';

const widget = { public_key: 'pw_abcdefghijklmnopqrstuvwxyz012345', accent_color: '#ff0000', name: 'Shop helper', image_url: null };

describe('widgetSnippet', () => {
  it('is the stylesheet, the container (key, accent without #, name, empty image, language) and the deferred script', () => {
    expect(widgetSnippet(widget, 'https://app.example.com/', 'en')).toBe(
      [
        '<link rel="stylesheet" href="https://app.example.com/widget/pluma-widget.css">',
        '<div id="pluma-chat-widget" data-key="pw_abcdefghijklmnopqrstuvwxyz012345" data-accent="ff0000" data-name="Shop helper" data-image="" data-lang="en"></div>',
        '<script src="https://app.example.com/widget/pluma-widget.js" defer></script>',
      ].join('\n'),
    );
  });

  it('escapes every attribute value, so a hostile name or image stays inside its attribute', () => {
    const snippet = widgetSnippet(
      { ...widget, name: `"><script>alert('x')</script>&`, image_url: 'https://img.example.com/a.png?x=1&y="2"' },
      'https://app.example.com',
      'es',
    );
    expect(snippet).toContain('data-name="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;"');
    expect(snippet).toContain('data-image="https://img.example.com/a.png?x=1&amp;y=&quot;2&quot;"');
    expect(snippet).toContain('data-lang="es"');
    // Parsed as HTML, the snippet is one container with the name intact and exactly one script (ours).
    const doc = new DOMParser().parseFromString(snippet, 'text/html');
    expect(doc.querySelectorAll('script')).toHaveLength(1);
    expect(doc.querySelector('#pluma-chat-widget')?.getAttribute('data-name')).toBe(`"><script>alert('x')</script>&`);
    expect(doc.querySelector('#pluma-chat-widget')?.getAttribute('data-image')).toBe('https://img.example.com/a.png?x=1&y="2"');
  });

  it('carries no user id, avatar id, token or other attribute than the contract’s', () => {
    const full = { ...widget, user_id: 7, avatar_id: 3, widget_id: 9, token: 'secret' } as typeof widget;
    const doc = new DOMParser().parseFromString(widgetSnippet(full, 'https://app.example.com', 'en'), 'text/html');
    const container = doc.querySelector('#pluma-chat-widget')!;
    expect(container.getAttributeNames().sort()).toEqual(['data-accent', 'data-image', 'data-key', 'data-lang', 'data-name', 'id']);
    expect(widgetSnippet(full, 'https://app.example.com', 'en')).not.toMatch(/secret|data-uid|user/);
  });

  it('escapeHtml turns the five special characters into entities', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});
