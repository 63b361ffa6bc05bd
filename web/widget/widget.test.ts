import { afterEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { mountAll, type ChatWidget } from './widget';

const SCRIPT_SRC = 'https://app.example.com/widget/pluma-widget.js';
const KEY = 'pw_abcdefghijklmnopqrstuvwxyz012345';

type Call = { url: string; init: RequestInit };

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function sse(frames: string[]) {
  const encoder = new TextEncoder();
  return new Response(
    new ReadableStream({
      start(controller) {
        for (const frame of frames) controller.enqueue(encoder.encode(frame));
        controller.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );
}

function startAnswer(visitorToken: string, messages: { role: string; content: string }[] = []) {
  return json(200, {
    visitor_token: visitorToken,
    session_token: 'session-1',
    session: { session_id: 1, expires_at: '2030-01-01T00:00:00Z' },
    widget: { name: 'Ana', accent_color: '#00aa55', image_url: null },
    messages: messages.map((message) => ({ ...message, status: 'done' })),
  });
}

/** A fetch that answers each call from the queue, recording the calls. */
function fakeFetch(...answers: (Response | Error)[]) {
  const calls: Call[] = [];
  const fetchImpl = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const answer = answers.shift();
    if (!answer) throw new Error(`unexpected call ${String(url)}`);
    if (answer instanceof Error) throw answer;
    return answer;
  }) as unknown as typeof fetch;
  return { calls, fetchImpl };
}

function mount(attributes: Record<string, string>, fetchImpl: typeof fetch): ChatWidget {
  const host = document.createElement('div');
  host.id = 'pluma-chat-widget';
  for (const [name, value] of Object.entries({ 'data-key': KEY, ...attributes })) host.setAttribute(name, value);
  document.body.append(host);
  const [widget] = mountAll(document, { scriptSrc: SCRIPT_SRC, fetchImpl });
  return widget;
}

const $ = <T extends Element = HTMLElement>(widget: ChatWidget, selector: string) => widget.shadow.querySelector<T>(selector)!;

async function until(check: () => boolean) {
  await vi.waitFor(() => expect(check()).toBe(true));
}

afterEach(() => {
  document.body.replaceChildren();
  document.head.querySelectorAll('style').forEach((style) => style.remove());
});

describe('shadow root isolation', () => {
  it('keeps its elements out of the light DOM and loads its stylesheet inside from the script origin', () => {
    const { fetchImpl } = fakeFetch();
    const widget = mount({ 'data-name': 'Ana', 'data-accent': 'ff8800' }, fetchImpl);
    expect(widget.host.shadowRoot).toBe(widget.shadow);
    expect(widget.host.children).toHaveLength(0);
    expect(document.querySelectorAll('button, textarea, [role="dialog"], [role="log"], link')).toHaveLength(0);
    expect(widget.shadow.querySelector('link')?.getAttribute('href')).toBe('https://app.example.com/widget/pluma-widget.css');
    // The accent is a CSS variable set through the CSSOM (allowed by a strict CSP), never a style attribute string.
    expect($(widget, '.pw-root').style.getPropertyValue('--pluma-data-accent')).toBe('#ff8800');
  });

  // jsdom's getComputedStyle wrongly applies document rules inside shadow roots, so that page styles do not
  // reach in is checked in a real browser (e2e/widget.e2e.test.ts); here, that page selectors find nothing.
  it('is not found by the page’s selectors', () => {
    const { fetchImpl } = fakeFetch();
    const widget = mount({}, fetchImpl);
    expect(document.querySelector('.pw-launcher, .pw-panel, #pw-input')).toBeNull();
    expect(widget.shadow.querySelector('.pw-launcher')).not.toBeNull();
  });

  it('has a stylesheet whose every rule starts with :host, so loading it in the page restyles nothing there', () => {
    const css = readFileSync(path.join(import.meta.dirname, 'widget.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/@keyframes[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}/g, '');
    const selectors = [...css.matchAll(/([^{};]+)\{/g)].map((match) => match[1].trim()).filter((selector) => !selector.startsWith('@'));
    expect(selectors.length).toBeGreaterThan(20);
    for (const group of selectors) for (const selector of group.split(',')) expect(selector.trim(), group).toMatch(/^:host\b/);
    expect(css).toMatch(/:host\s*\{[^}]*all:\s*initial/);
  });

  it('ignores an accent that is not a hex colour and an image that is not http(s)', () => {
    const { fetchImpl } = fakeFetch();
    const widget = mount({ 'data-accent': 'red;background:url(x)', 'data-image': 'javascript:alert(1)' }, fetchImpl);
    expect($(widget, '.pw-root').style.getPropertyValue('--pluma-data-accent')).toBe('');
    expect(widget.shadow.querySelector('img:not([hidden])')).toBeNull();
  });
});

describe('keyboard and accessibility', () => {
  it('labels the launcher, opens a non-modal dialog, closes on Escape and gives focus back; Tab is never trapped', async () => {
    const { fetchImpl } = fakeFetch(startAnswer('v1'));
    const widget = mount({ 'data-name': 'Ana' }, fetchImpl);
    const launcher = $<HTMLButtonElement>(widget, '.pw-launcher');
    expect(launcher.getAttribute('aria-label')).toBe('Open chat with Ana');
    const dialog = $(widget, '[role="dialog"]');
    expect(dialog.hidden).toBe(true);
    launcher.click();
    expect(dialog.hidden).toBe(false);
    expect(dialog.getAttribute('aria-modal')).toBe('false');
    expect($(widget, `#${dialog.getAttribute('aria-labelledby')}`).textContent).toBe('Ana');
    expect(widget.shadow.activeElement).toBe($(widget, 'textarea'));
    await until(() => $(widget, '.pw-greeting') !== null);

    const tab = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true });
    $(widget, 'textarea').dispatchEvent(tab);
    expect(tab.defaultPrevented).toBe(false);

    $(widget, 'textarea').dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
    expect(dialog.hidden).toBe(true);
    expect(widget.shadow.activeElement).toBe(launcher);
    expect(launcher.getAttribute('aria-expanded')).toBe('false');
  });

  it('renders history without announcing it, then announces new messages once', async () => {
    localStorage.setItem(`pluma-widget:${KEY}`, 'session-1');
    const { calls, fetchImpl } = fakeFetch(
      startAnswer('v1', [
        { role: 'user', content: 'Earlier question' },
        { role: 'assistant', content: 'Earlier answer' },
      ]),
      sse(['event: delta\ndata: {"text":"New "}\n\n', 'event: delta\ndata: {"text":"answer"}\n\nevent: done\ndata: {"message":{"content":"New answer"}}\n\n']),
    );
    const widget = mount({}, fetchImpl);
    const log = $(widget, '[role="log"]');
    // What the log's aria-live was whenever its content changed.
    const liveAtChange: (string | null)[] = [];
    new MutationObserver(() => liveAtChange.push(log.getAttribute('aria-live'))).observe(log, { childList: true });
    // A returning visitor's session is resumed at load, before the panel opens.
    await until(() => log.textContent?.includes('Earlier answer') ?? false);
    expect(JSON.parse(String(calls[0].init.body))).toMatchObject({ session_token: 'session-1', lang: 'en' });
    await until(() => log.getAttribute('aria-live') === 'polite');
    expect(liveAtChange).toEqual(['off']);

    $(widget, '.pw-launcher').click();
    const input = $<HTMLTextAreaElement>(widget, 'textarea');
    input.value = 'Hello';
    const busyStates: (string | null)[] = [];
    new MutationObserver(() => busyStates.push(log.getAttribute('aria-busy'))).observe(log, { attributes: true, attributeFilter: ['aria-busy'] });
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    await until(() => log.textContent?.includes('New answer') ?? false);
    await until(() => log.getAttribute('aria-busy') === 'false');
    expect(busyStates).toEqual(['true', 'false']);
    expect(calls[1].url).toBe(`https://app.example.com/api/widget/${KEY}/messages`);
    expect(new Headers(calls[1].init.headers).get('authorization')).toBe('Bearer v1');
    expect(JSON.parse(String(calls[1].init.body))).toEqual({ content: 'Hello', lang: 'en' });
    expect(input.value).toBe('');
  });

  it('keeps Shift+Enter for a new line', () => {
    const { calls, fetchImpl } = fakeFetch();
    const widget = mount({}, fetchImpl);
    const input = $<HTMLTextAreaElement>(widget, 'textarea');
    input.value = 'line one';
    const event = new KeyboardEvent('keydown', { key: 'Enter', shiftKey: true, bubbles: true, cancelable: true });
    input.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
    expect(calls).toHaveLength(0);
  });
});

describe('the conversation', () => {
  async function openAndSend(widget: ChatWidget, text: string) {
    $(widget, '.pw-launcher').click();
    await until(() => !$<HTMLTextAreaElement>(widget, 'textarea').disabled && $(widget, '.pw-greeting') !== null);
    $<HTMLTextAreaElement>(widget, 'textarea').value = text;
    $<HTMLButtonElement>(widget, '.pw-send').click();
  }

  it('starts again once on 401 and retries the message with the new visitor token', async () => {
    const { calls, fetchImpl } = fakeFetch(
      startAnswer('v1'),
      json(401, { code: 'visitor_token_invalid', message: 'expired' }),
      startAnswer('v2'),
      sse(['event: delta\ndata: {"text":"Hi"}\n\nevent: done\ndata: {"message":{"content":"Hi **there**"}}\n\n']),
    );
    const widget = mount({}, fetchImpl);
    await openAndSend(widget, 'Hello');
    await until(() => $(widget, '[role="log"]').textContent?.includes('Hi there') ?? false);
    // The finished answer's markdown is drawn as elements.
    expect($(widget, '.pw-message-assistant strong').textContent).toBe('there');
    expect(calls.map((call) => call.url.split('/').pop())).toEqual(['start', 'messages', 'start', 'messages']);
    expect(JSON.parse(String(calls[2].init.body))).toMatchObject({ session_token: 'session-1' });
    expect(new Headers(calls[3].init.headers).get('authorization')).toBe('Bearer v2');
    expect(localStorage.getItem(`pluma-widget:${KEY}`)).toBe('session-1');
    expect($(widget, '.pw-notice').hidden).toBe(true);
  });

  it('shows the server’s message when the owner’s words are spent, and no answer', async () => {
    const { fetchImpl } = fakeFetch(startAnswer('v1'), json(402, { code: 'widget_limit_reached', message: 'This chat has reached its limit for now. Please try again later.' }));
    const widget = mount({}, fetchImpl);
    await openAndSend(widget, 'Hello');
    await until(() => !$(widget, '.pw-notice').hidden);
    expect($(widget, '.pw-notice').textContent).toBe('This chat has reached its limit for now. Please try again later.');
    expect(widget.shadow.querySelectorAll('.pw-message-assistant')).toHaveLength(0);
  });

  it('says the chat is unavailable when the site is refused (CORS hides the answer) and disables sending', async () => {
    const { fetchImpl } = fakeFetch(new TypeError('Failed to fetch'));
    const widget = mount({ 'data-lang': 'es' }, fetchImpl);
    $(widget, '.pw-launcher').click();
    await until(() => !$(widget, '.pw-notice').hidden);
    expect($(widget, '.pw-notice').textContent).toBe('Este chat no está disponible en este momento.');
    expect($<HTMLTextAreaElement>(widget, 'textarea').disabled).toBe(true);
    expect($(widget, '.pw-launcher').getAttribute('aria-label')).toBe('Abrir chat con Chat');
    // The focus stays in the panel (not dropped on the page), and Escape still closes it.
    expect(widget.shadow.activeElement).toBe($(widget, '.pw-close'));
    $(widget, '.pw-close').dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect($(widget, '[role="dialog"]').hidden).toBe(true);
    expect(widget.shadow.activeElement).toBe($(widget, '.pw-launcher'));
  });

  it('shows an error event of the stream and keeps the words already received', async () => {
    const { fetchImpl } = fakeFetch(
      startAnswer('v1'),
      sse(['event: delta\ndata: {"text":"Partial"}\n\n', 'event: error\ndata: {"code":"failed","message":"The answer failed."}\n\n']),
    );
    const widget = mount({}, fetchImpl);
    await openAndSend(widget, 'Hello');
    await until(() => $(widget, '.pw-notice').textContent === 'The answer failed.');
    expect($(widget, '.pw-message-assistant').textContent).toContain('Partial');
    expect($<HTMLButtonElement>(widget, '.pw-send').disabled).toBe(false);
  });

  it('New chat asks for a fresh session and clears the log', async () => {
    localStorage.setItem(`pluma-widget:${KEY}`, 'session-1');
    const { calls, fetchImpl } = fakeFetch(startAnswer('v1', [{ role: 'user', content: 'Old' }]), startAnswer('v2'));
    const widget = mount({}, fetchImpl);
    await until(() => $(widget, '[role="log"]').textContent?.includes('Old') ?? false);
    $<HTMLButtonElement>(widget, '.pw-new').click();
    await until(() => $(widget, '.pw-greeting') !== null);
    expect($(widget, '[role="log"]').textContent).not.toContain('Old');
    expect(JSON.parse(String(calls[1].init.body))).toMatchObject({ new_chat: true });
    expect(JSON.parse(String(calls[1].init.body)).session_token).toBeUndefined();
  });

  it('in embedded mode has no launcher, is always open and starts at once', async () => {
    const { calls, fetchImpl } = fakeFetch(startAnswer('v1'));
    const widget = mount({ 'data-mode': 'embedded' }, fetchImpl);
    expect($(widget, '.pw-launcher').hidden).toBe(true);
    expect($(widget, '[role="dialog"]').hidden).toBe(false);
    await until(() => calls.length === 1);
    $(widget, 'textarea').dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect($(widget, '[role="dialog"]').hidden).toBe(false);
  });

  it('still works when storage is blocked', async () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    const { fetchImpl } = fakeFetch(startAnswer('v1'), sse(['event: done\ndata: {"message":{"content":"Fine"}}\n\n']));
    const widget = mount({}, fetchImpl);
    await openAndSend(widget, 'Hello');
    await until(() => $(widget, '[role="log"]').textContent?.includes('Fine') ?? false);
  });
});

describe('Stop (issue 30 item 1)', () => {
  it('turns Send into Stop while the answer streams; Stop asks the server for this session; the answer says Stopped', async () => {
    const encoder = new TextEncoder();
    let push: (frame: string) => void = () => undefined;
    let end: () => void = () => undefined;
    const streaming = new Response(
      new ReadableStream({
        start(controller) {
          push = (frame) => controller.enqueue(encoder.encode(frame));
          end = () => controller.close();
        },
      }),
      { status: 200, headers: { 'content-type': 'text/event-stream' } },
    );
    const { calls, fetchImpl } = fakeFetch(startAnswer('v1'), streaming, json(200, { message: { role: 'assistant', content: 'Half an', status: 'stopped' } }));
    const widget = mount({ 'data-lang': 'es' }, fetchImpl);
    $(widget, '.pw-launcher').click();
    await until(() => $(widget, '.pw-greeting') !== null);
    $<HTMLTextAreaElement>(widget, 'textarea').value = 'Hola';
    $<HTMLButtonElement>(widget, '.pw-send:not(.pw-stop)').click();
    push('event: delta\ndata: {"text":"Half an"}\n\n');
    const stop = $<HTMLButtonElement>(widget, '.pw-stop');
    await until(() => !stop.hidden);
    expect($(widget, '.pw-send:not(.pw-stop)').hidden).toBe(true);
    expect(stop.getAttribute('aria-label')).toBe('Detener');
    stop.click();
    await until(() => calls.length === 3);
    expect(calls[2].url).toBe(`https://app.example.com/api/widget/${KEY}/messages/stop`);
    expect(calls[2].init.method).toBe('POST');
    expect(new Headers(calls[2].init.headers).get('authorization')).toBe('Bearer v1');
    // The server ends the stream with the stopped answer.
    push('event: done\ndata: {"message":{"role":"assistant","content":"Half an","status":"stopped"}}\n\n');
    end();
    await until(() => widget.shadow.querySelector('.pw-stopped') !== null);
    expect($(widget, '.pw-message-assistant').textContent).toContain('Half an');
    expect($(widget, '.pw-stopped').textContent).toBe('Detenido');
    expect(stop.hidden).toBe(true);
    expect($(widget, '.pw-send:not(.pw-stop)').hidden).toBe(false);
    expect($(widget, '.pw-notice').hidden).toBe(true);
  });

  it('shows a stopped answer of the history as Stopped', async () => {
    localStorage.setItem(`pluma-widget:${KEY}`, 'session-1');
    const answer = json(200, {
      visitor_token: 'v1',
      session_token: 'session-1',
      session: { session_id: 1, expires_at: '2030-01-01T00:00:00Z' },
      widget: { name: 'Ana', accent_color: '#00aa55', image_url: null },
      messages: [
        { role: 'user', content: 'Q', status: 'done' },
        { role: 'assistant', content: 'Partial', status: 'stopped' },
      ],
    });
    const { fetchImpl } = fakeFetch(answer);
    const widget = mount({}, fetchImpl);
    await until(() => widget.shadow.querySelector('.pw-stopped') !== null);
    expect($(widget, '.pw-stopped').textContent).toBe('Stopped');
  });
});
