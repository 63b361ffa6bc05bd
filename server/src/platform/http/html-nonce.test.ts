import { describe, expect, it } from 'vitest';
import { addNonceToTags } from './html-nonce';

const N = 'abc123+/=';
const add = (html: string) => addNonceToTags(html, N);

describe('addNonceToTags', () => {
  it('adds the nonce first in every script start tag and keeps the rest as written', () => {
    const gtag =
      '<!-- Google tag -->\n<script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>\n' +
      "<script>window.dataLayer = window.dataLayer || []; gtag('config', 'G-1');</script>";
    expect(add(gtag)).toBe(
      '<!-- Google tag -->\n<script nonce="abc123+/=" async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>\n' +
        `<script nonce="abc123+/=">window.dataLayer = window.dataLayer || []; gtag('config', 'G-1');</script>`,
    );
    expect(add('<SCRIPT type="text/javascript">x()</SCRIPT>')).toBe('<SCRIPT nonce="abc123+/=" type="text/javascript">x()</SCRIPT>');
  });

  it('puts ours before a nonce the snippet already had (the first duplicate attribute wins)', () => {
    expect(add('<script nonce="old">x()</script>')).toBe('<script nonce="abc123+/=" nonce="old">x()</script>');
  });

  it('leaves script-looking text alone: comments, attribute values, script bodies, noscript and style', () => {
    const untouched = [
      '<!-- <script>evil()</script> -->',
      '<img alt="<script>x</script>" src="/p.gif">',
      "<div title='a > <script>'></div>",
      '<noscript><script>not run</script><img src="https://t.example/p.gif"></noscript>',
      '<style>.a::after { content: "<script>"; }</style>',
    ];
    for (const html of untouched) expect(add(html)).toBe(html);
    // A script whose body writes another tag: only the outer tag is the element.
    expect(add('<script>document.write("<script src=x><\\/script>")</script>')).toBe(
      '<script nonce="abc123+/=">document.write("<script src=x><\\/script>")</script>',
    );
  });

  it('follows the script data escape states: a nested <script> inside <!-- does not end the body early', () => {
    const html = '<script><!-- a("<script>"); b("</script>"); --></script><script>c()</script>';
    expect(add(html)).toBe(`<script nonce="${N}"><!-- a("<script>"); b("</script>"); --></script><script nonce="${N}">c()</script>`);
  });

  it('cannot swallow the page that follows: unterminated comments, script bodies and tags are closed or dropped', () => {
    expect(add('<!-- forgot to close')).toBe('<!-- forgot to close-->');
    expect(add('<script>track()')).toBe(`<script nonce="${N}">track()</script>`);
    expect(add('<p>hi</p><script src="https://t.example/x.js')).toBe('<p>hi</p>');
    expect(add('<style>.a{}')).toBe('<style>.a{}</style>');
  });

  it('adds the nonce to other named tags only when asked (our template\'s modulepreload links)', () => {
    const html = '<link rel="modulepreload" crossorigin href="/assets/react.js"><script type="module" src="/assets/index.js"></script>';
    expect(add(html)).toBe(`<link rel="modulepreload" crossorigin href="/assets/react.js"><script nonce="${N}" type="module" src="/assets/index.js"></script>`);
    expect(addNonceToTags(html, N, new Set(['script', 'link']))).toBe(
      `<link nonce="${N}" rel="modulepreload" crossorigin href="/assets/react.js"><script nonce="${N}" type="module" src="/assets/index.js"></script>`,
    );
  });

  it('keeps stray < and unquoted values with quotes as text and values', () => {
    expect(add('a < b <3 <script data-x=a"b>x</script>')).toBe(`a < b <3 <script nonce="${N}" data-x=a"b>x</script>`);
  });
});
