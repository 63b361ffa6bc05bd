// The widget's side of the public widget API (contract B): start or resume a visitor session, send a
// message and read the streamed answer, or stop it (the answer ends 'stopped', its text kept). Only the widget's public key and the visitor's own tokens are
// used; the session token is kept in localStorage (`pluma-widget:{key}`) so the session survives page
// loads (7 days on the server), the visitor token (30 min) only in memory.
import { readEventStream } from './sse';
import type { WidgetErrorCode, WidgetStartResponse, WidgetVisitorMessage } from '@pluma/common/widgets';
import type { WidgetLang } from './i18n';

// Types only (erased at build): the contract's zod schemas would weigh more than the whole widget.
export type StartAnswer = WidgetStartResponse;
export type WidgetMessage = WidgetVisitorMessage;

/** A refusal from the API (or the network): `code` from the server's JSON, `message` in the visitor's language. */
export class WidgetApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: WidgetErrorCode | 'network' | `http_${number}` | string,
    message: string,
  ) {
    super(message);
  }
}

export interface StreamHandlers {
  onDelta: (text: string) => void;
}

const storageKey = (key: string) => `pluma-widget:${key}`;

// Storage may be off (private modes, sandboxed iframes, blocked third-party storage): the chat still
// works, it just does not survive a reload.
function readSessionToken(key: string): string | null {
  try {
    return window.localStorage.getItem(storageKey(key));
  } catch {
    return null;
  }
}

function writeSessionToken(key: string, token: string | null) {
  try {
    if (token) window.localStorage.setItem(storageKey(key), token);
    else window.localStorage.removeItem(storageKey(key));
  } catch {
    /* storage unavailable: keep the session for this page only */
  }
}

export function hasStoredSession(key: string): boolean {
  return readSessionToken(key) !== null;
}

async function refusal(response: Response): Promise<WidgetApiError> {
  let code = `http_${response.status}`;
  let message = '';
  try {
    const body = (await response.json()) as { code?: unknown; message?: unknown };
    if (typeof body.code === 'string') code = body.code;
    if (typeof body.message === 'string') message = body.message;
  } catch {
    /* not JSON: the widget shows its own text for the status */
  }
  return new WidgetApiError(response.status, code, message);
}

export class WidgetClient {
  private visitorToken: string | null = null;
  private sessionToken: string | null;

  constructor(
    private readonly apiOrigin: string,
    private readonly publicKey: string,
    private readonly lang: WidgetLang,
    private readonly fetchImpl: typeof fetch = (...args) => window.fetch(...args),
  ) {
    this.sessionToken = readSessionToken(publicKey);
  }

  private url(path: string) {
    return `${this.apiOrigin}/api/widget/${encodeURIComponent(this.publicKey)}/${path}`;
  }

  private async request(path: string, init: RequestInit): Promise<Response> {
    try {
      // credentials 'omit': the visitor's cookies for the app's origin are none of the widget's business.
      return await this.fetchImpl(this.url(path), { ...init, credentials: 'omit', mode: 'cors' });
    } catch {
      // A network failure, or CORS refusing this site's origin: the browser hides which.
      throw new WidgetApiError(0, 'network', '');
    }
  }

  /** Starts a session, resuming the stored one unless `newChat`. */
  async start(newChat = false): Promise<StartAnswer> {
    const response = await this.request('start', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ session_token: newChat ? undefined : (this.sessionToken ?? undefined), new_chat: newChat || undefined, lang: this.lang }),
    });
    if (!response.ok) {
      const error = await refusal(response);
      // A session the server no longer knows is of no use on the next load either.
      if (response.status === 401) this.forgetSession();
      throw error;
    }
    const answer = (await response.json()) as StartAnswer;
    this.visitorToken = answer.visitor_token;
    this.sessionToken = answer.session_token;
    writeSessionToken(this.publicKey, answer.session_token);
    return answer;
  }

  forgetSession() {
    this.sessionToken = null;
    this.visitorToken = null;
    writeSessionToken(this.publicKey, null);
  }

  get started() {
    return this.visitorToken !== null;
  }

  /**
   * Sends a message and streams the answer through `onDelta`; resolves with the whole answer (`stopped` when
   * the visitor stopped it). An expired or rotated visitor token (401) starts the session again once, then
   * retries.
   */
  async send(content: string, handlers: StreamHandlers): Promise<{ text: string; stopped: boolean }> {
    if (!this.visitorToken) await this.start();
    let response = await this.post(content);
    if (response.status === 401) {
      await this.start();
      response = await this.post(content);
    }
    if (!response.ok || !response.body) throw await refusal(response);
    let text = '';
    let failure: WidgetApiError | null = null;
    let finished = false;
    let stopped = false;
    await readEventStream(response.body, (event) => {
      let data: Record<string, unknown> = {};
      try {
        data = JSON.parse(event.data) as Record<string, unknown>;
      } catch {
        return;
      }
      if (event.event === 'delta' && typeof data.text === 'string') {
        text += data.text;
        handlers.onDelta(data.text);
      } else if (event.event === 'done') {
        finished = true;
        const message = data.message as WidgetMessage | undefined;
        if (message && typeof message.content === 'string') text = message.content;
        stopped = message?.status === 'stopped';
      } else if (event.event === 'error') {
        failure = new WidgetApiError(200, typeof data.code === 'string' ? data.code : 'failed', typeof data.message === 'string' ? data.message : '');
      }
    });
    if (failure) throw failure;
    if (!finished) throw new WidgetApiError(0, 'network', '');
    return { text, stopped };
  }

  /**
   * Stops the session's answer being written (the server ends it 'stopped'; the stream of send() then ends
   * with it). Resolves false when it could not be asked (nothing running, the network).
   */
  async stop(): Promise<boolean> {
    if (!this.visitorToken) return false;
    const response = await this.request('messages/stop', { method: 'POST', headers: { accept: 'application/json', authorization: `Bearer ${this.visitorToken}` } }).catch(() => null);
    return response?.ok ?? false;
  }

  private post(content: string) {
    return this.request('messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${this.visitorToken}` },
      body: JSON.stringify({ content, lang: this.lang }),
    });
  }
}
