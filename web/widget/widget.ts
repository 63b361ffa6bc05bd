// The embeddable chat widget (issue 15 item 4): one instance per host element, rendered in an open shadow
// root so the host page's styles and the widget's cannot reach each other. Accessibility: a labelled
// launcher, the panel is role=dialog (not modal: Tab leaves it normally), Escape closes it and returns
// focus to the launcher, and the log announces only new messages (history is rendered while the log is
// not live; a streamed answer is announced once, when complete, through aria-busy). While an answer streams,
// Send becomes Stop: the server ends it as it is, and the answer says 'Stopped'.
import { WidgetApiError, WidgetClient, hasStoredSession, type StartAnswer, type WidgetMessage } from './api';
import type { WidgetErrorCode } from '@pluma/common/widgets';
import { ICONS, el, icon } from './dom';
import { renderMarkdown } from './markdown';
import { pickLang, translator, type Translate, type WidgetLang } from './i18n';

export interface WidgetOptions {
  /** Where the script came from: the API's origin and the stylesheet's location derive from it. */
  scriptSrc: string;
  fetchImpl?: typeof fetch;
}

const HEX_COLOUR = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

function colour(value: string | null | undefined): string | null {
  const match = value ? HEX_COLOUR.exec(value.trim()) : null;
  return match ? `#${match[1]}` : null;
}

/** Only http(s) images, resolved against the app (the server may answer a path). */
function imageUrl(value: string | null | undefined, base: string): string | null {
  if (!value) return null;
  try {
    const url = new URL(value, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

type Frame = (callback: () => void) => void;
const nextFrame: Frame = (callback) => {
  if (typeof window.requestAnimationFrame === 'function') window.requestAnimationFrame(() => callback());
  else window.setTimeout(callback, 16);
};

export class ChatWidget {
  readonly shadow: ShadowRoot;
  private readonly client: WidgetClient;
  private readonly t: Translate;
  private readonly lang: WidgetLang;
  private readonly embedded: boolean;
  private readonly apiOrigin: string;
  private name: string;

  private readonly root: HTMLDivElement;
  private readonly launcher: HTMLButtonElement;
  private readonly panel: HTMLElement;
  private readonly title: HTMLHeadingElement;
  private readonly headerImage: HTMLImageElement;
  private readonly newChatButton: HTMLButtonElement;
  private readonly log: HTMLDivElement;
  private readonly notice: HTMLParagraphElement;
  private readonly form: HTMLFormElement;
  private readonly input: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly closeButton: HTMLButtonElement;

  private starting: Promise<StartAnswer | null> | null = null;
  private busy = false;
  private available = true;

  constructor(
    readonly host: HTMLElement,
    private readonly key: string,
    options: WidgetOptions,
  ) {
    const scriptUrl = new URL(options.scriptSrc, document.baseURI);
    this.apiOrigin = scriptUrl.origin;
    this.lang = pickLang(host.dataset.lang, navigator.language);
    this.t = translator(this.lang);
    this.embedded = host.dataset.mode === 'embedded';
    this.name = host.dataset.name?.trim() || this.t('defaultName');
    this.client = new WidgetClient(this.apiOrigin, key, this.lang, options.fetchImpl);

    this.shadow = host.attachShadow({ mode: 'open' });
    const stylesheet = el('link', { rel: 'stylesheet', href: new URL('pluma-widget.css', scriptUrl).href });

    this.launcher = el('button', { type: 'button', class: 'pw-launcher', 'aria-expanded': 'false', 'aria-controls': 'pw-panel' });
    this.title = el('h2', { id: 'pw-title', class: 'pw-title' });
    this.headerImage = el('img', { class: 'pw-header-image', alt: '' });
    this.headerImage.hidden = true;
    this.newChatButton = el('button', { type: 'button', class: 'pw-header-button pw-new' }, icon(ICONS.plus), this.t('newChat'));
    const closeButton = (this.closeButton = el('button', { type: 'button', class: 'pw-header-button pw-close', 'aria-label': this.t('closeChat') }, icon(ICONS.close)));
    closeButton.hidden = this.embedded;
    // role=log is polite by nature; it stays 'off' until the history is on screen (see renderHistory).
    this.log = el('div', { class: 'pw-log', role: 'log', 'aria-live': 'off', 'aria-labelledby': 'pw-title' });
    this.notice = el('p', { class: 'pw-notice', role: 'status' });
    this.notice.hidden = true;
    this.input = el('textarea', { id: 'pw-input', class: 'pw-input', rows: '1', maxlength: '2000', placeholder: this.t('placeholder') });
    this.sendButton = el('button', { type: 'submit', class: 'pw-send', 'aria-label': this.t('send') }, icon(ICONS.send));
    this.stopButton = el('button', { type: 'button', class: 'pw-send pw-stop', 'aria-label': this.t('stop') }, icon(ICONS.stop));
    this.stopButton.hidden = true;
    this.form = el('form', { class: 'pw-form' }, el('label', { class: 'pw-sr-only', for: 'pw-input' }, this.t('messageLabel')), this.input, this.sendButton, this.stopButton);
    this.panel = el(
      'section',
      { id: 'pw-panel', class: 'pw-panel', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'pw-title' },
      el('header', { class: 'pw-header' }, this.headerImage, this.title, this.newChatButton, closeButton),
      this.log,
      this.notice,
      this.form,
    );
    this.root = el('div', { class: `pw-root ${this.embedded ? 'pw-embedded' : 'pw-floating'}`, lang: this.lang }, this.launcher, this.panel);
    this.shadow.append(stylesheet, this.root);

    this.applyLook(host.dataset.accent, host.dataset.image);
    this.launcher.hidden = this.embedded;
    this.panel.hidden = !this.embedded;

    this.launcher.addEventListener('click', () => (this.isOpen ? this.close() : this.open()));
    closeButton.addEventListener('click', () => this.close());
    // On the whole widget: the focus may be on the launcher (or the close button) when Escape comes.
    this.root.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.isOpen && !this.embedded) {
        event.preventDefault();
        this.close();
      }
    });
    this.input.addEventListener('keydown', (event) => {
      // Enter sends, Shift+Enter is a new line; never while an input method is composing.
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        void this.submit();
      }
    });
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.submit();
    });
    this.newChatButton.addEventListener('click', () => void this.newChat());
    this.stopButton.addEventListener('click', () => {
      this.stopButton.disabled = true;
      void this.client.stop();
    });

    // A returning visitor sees their conversation at once; a first visit asks the server only when opened.
    if (this.embedded || hasStoredSession(key)) void this.ensureStarted();
  }

  get isOpen() {
    return !this.panel.hidden;
  }

  open() {
    this.panel.hidden = false;
    this.launcher.setAttribute('aria-expanded', 'true');
    this.input.focus();
    this.scrollToEnd();
    void this.ensureStarted();
  }

  close() {
    if (this.embedded) return;
    this.panel.hidden = true;
    this.launcher.setAttribute('aria-expanded', 'false');
    this.launcher.focus();
  }

  /** Name, accent and image: data-* attributes first, then the server's current configuration. */
  private applyLook(accent: string | null | undefined, image: string | null | undefined) {
    const accentColour = colour(accent);
    if (accentColour) this.root.style.setProperty('--pluma-data-accent', accentColour);
    this.title.textContent = this.name;
    this.launcher.setAttribute('aria-label', this.t('openChat', { name: this.name }));
    const src = imageUrl(image, this.apiOrigin);
    const launcherImage = src ? el('img', { class: 'pw-launcher-image', alt: '', src }) : null;
    if (launcherImage) launcherImage.addEventListener('error', () => this.launcher.replaceChildren(icon(ICONS.chat)), { once: true });
    this.launcher.replaceChildren(launcherImage ?? icon(ICONS.chat));
    if (src) this.headerImage.setAttribute('src', src);
    this.headerImage.hidden = !src;
  }

  private ensureStarted(): Promise<StartAnswer | null> {
    this.starting ??= this.start(false);
    return this.starting;
  }

  private async start(newChat: boolean): Promise<StartAnswer | null> {
    this.setNotice(null);
    try {
      const answer = await this.client.start(newChat);
      this.name = answer.widget.name?.trim() || this.name;
      this.applyLook(answer.widget.accent_color, answer.widget.image_url ?? this.host.dataset.image);
      this.renderHistory(answer.messages);
      this.setAvailable(true);
      return answer;
    } catch (error) {
      this.starting = null; // the next open or send tries again
      this.showError(error);
      return null;
    }
  }

  private async newChat() {
    if (this.busy) return;
    this.starting = this.start(true);
    await this.starting;
    this.input.focus();
  }

  /** Renders a conversation while the log is not live, so opening a chat does not read its whole history. */
  private renderHistory(messages: WidgetMessage[]) {
    this.log.setAttribute('aria-live', 'off');
    this.log.replaceChildren();
    if (messages.length === 0) this.log.append(el('p', { class: 'pw-greeting' }, this.t('greeting', { name: this.name })));
    for (const message of messages) this.log.append(this.bubble(message.role === 'user' ? 'user' : 'assistant', message.content, message.status === 'stopped'));
    this.scrollToEnd();
    // After this task: assistive technology has seen the history arrive while the region was off.
    window.setTimeout(() => this.log.setAttribute('aria-live', 'polite'), 0);
  }

  private bubble(role: 'user' | 'assistant', text: string, stopped = false): HTMLDivElement {
    const speaker = role === 'user' ? this.t('you') : this.name;
    // Answers are markdown, drawn as DOM nodes (markdown.ts); the visitor's own text stays as typed.
    const content = role === 'assistant' ? el('div', { class: 'pw-message-text pw-md' }, renderMarkdown(text)) : el('span', { class: 'pw-message-text' }, text);
    const bubble = el('div', { class: `pw-message pw-message-${role}` }, el('span', { class: 'pw-sr-only' }, `${speaker}: `), content);
    if (stopped) bubble.append(el('span', { class: 'pw-stopped' }, this.t('stopped')));
    return bubble;
  }

  /** Send, or Stop while an answer streams (the focus follows the button that takes its place). */
  private setStreaming(streaming: boolean) {
    const focused = this.shadow.activeElement === (streaming ? this.sendButton : this.stopButton);
    this.sendButton.hidden = streaming;
    this.stopButton.hidden = !streaming;
    this.stopButton.disabled = false;
    if (focused) (streaming ? this.stopButton : this.input).focus();
  }

  private async submit() {
    const content = this.input.value.trim();
    if (!content || this.busy) return;
    this.busy = true;
    this.sendButton.disabled = true;
    this.newChatButton.disabled = true;
    this.setNotice(null);
    try {
      const started = await this.ensureStarted();
      if (!started) return;
      this.input.value = '';
      this.log.querySelector('.pw-greeting')?.remove();
      this.log.append(this.bubble('user', content));
      await this.stream(content);
    } finally {
      this.busy = false;
      this.setAvailable(this.available);
    }
  }

  /** Streams the answer into a new bubble, painting the deltas at most once an animation frame. */
  private async stream(content: string) {
    const answer = el('div', { class: 'pw-message pw-message-assistant pw-message-streaming' });
    const text = el('span', { class: 'pw-message-text' });
    // The log waits (aria-busy) until the answer is whole, then announces it once.
    this.log.setAttribute('aria-busy', 'true');
    this.log.append(answer);
    this.scrollToEnd();
    this.setStreaming(true);
    let pending = '';
    let scheduled = false;
    const flush = () => {
      scheduled = false;
      if (!pending) return;
      if (!text.isConnected) answer.replaceChildren(el('span', { class: 'pw-sr-only' }, `${this.name}: `), text);
      text.append(pending);
      pending = '';
      this.scrollToEnd();
    };
    try {
      const whole = await this.client.send(content, {
        onDelta: (delta) => {
          pending += delta;
          if (!scheduled) {
            scheduled = true;
            nextFrame(flush);
          }
        },
      });
      pending = '';
      answer.replaceWith(this.bubble('assistant', whole.text, whole.stopped));
    } catch (error) {
      flush();
      if (!text.textContent) answer.remove();
      else answer.classList.remove('pw-message-streaming');
      this.showError(error);
    } finally {
      this.setStreaming(false);
      this.log.setAttribute('aria-busy', 'false');
      this.scrollToEnd();
    }
  }

  private showError(error: unknown) {
    const status = error instanceof WidgetApiError ? error.status : 0;
    const code = error instanceof WidgetApiError ? error.code : 'network';
    const fallback =
      status === 402 || code === ('widget_limit_reached' satisfies WidgetErrorCode)
        ? this.t('limitReached')
        : status === 429 || code === ('rate_limited' satisfies WidgetErrorCode)
          ? this.t('rateLimited')
          : status === 0 || status === 403 || status === 404
            ? this.t('unavailable')
            : this.t('failed');
    this.setNotice(error instanceof WidgetApiError && error.message ? error.message : fallback);
    // A site that may not use this widget, a disabled or unknown widget: nothing to send to.
    if (status === 0 || status === 403 || status === 404) this.setAvailable(false);
  }

  private setAvailable(available: boolean) {
    // A field disabled under the visitor's focus would drop it on the page's body: keep it in the panel.
    if (!available && this.shadow.activeElement === this.input && !this.embedded) this.closeButton.focus();
    this.available = available;
    this.input.disabled = !available;
    this.sendButton.disabled = !available;
    this.newChatButton.disabled = !available;
  }

  private setNotice(message: string | null) {
    this.notice.textContent = message ?? '';
    this.notice.hidden = !message;
  }

  private scrollToEnd() {
    this.log.scrollTop = this.log.scrollHeight;
  }
}

const mounted = new WeakSet<Element>();

/** Mounts a widget on every `#pluma-chat-widget` and `[data-pluma-widget]` not yet mounted. */
export function mountAll(root: ParentNode, options: WidgetOptions): ChatWidget[] {
  const widgets: ChatWidget[] = [];
  for (const host of root.querySelectorAll<HTMLElement>('#pluma-chat-widget, [data-pluma-widget]')) {
    if (mounted.has(host) || host.shadowRoot) continue;
    const key = host.dataset.key?.trim();
    if (!key) {
      console.warn('Pluma widget: data-key is missing');
      continue;
    }
    mounted.add(host);
    widgets.push(new ChatWidget(host, key, options));
  }
  return widgets;
}
