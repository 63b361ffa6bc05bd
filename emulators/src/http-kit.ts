// Small plain-`http` toolkit shared by the emulators: listening, JSON bodies, SSE frames, pacing, counters.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeliveryOptions } from './webhook-delivery';

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Delay between streamed tokens; 0 (default) sends as fast as possible. A prompt's `[rate:N]` overrides it. */
  tokenDelayMs?: number;
  /** When set, only this API key is accepted (others get the provider's 401). Default: any non-empty key. */
  apiKey?: string;
  /** When set, other model names get the provider's 404. Default: any model name is served. */
  models?: string[];
  /** Writes generated answers instead of the built-in composer (answer.ts AnswerComposer; OpenAI emulator). */
  compose?: (turns: { role: string; content: string }[]) => string | null;
}

/** Request counters, for assertions in tests and figures in benchmarks. */
export interface EmulatorStats {
  /** Every HTTP request received. */
  requests: number;
  /** Generation requests (chat completions / messages), streamed or not. */
  generations: number;
  streams: number;
  /** Generations that ran to their normal end. */
  completed: number;
  /** Error responses sent (auth, validation, forced errors, failNext). */
  errors: number;
  /** Sockets dropped on purpose by `[disconnect:N]`. */
  disconnects: number;
  /** Streams the client closed before the end. */
  clientAborts: number;
  /** Body of the last generation request. */
  lastRequest: Record<string, unknown> | null;
  /** Header values of the last generation request (lower-case names). */
  lastHeaders: Record<string, string | string[] | undefined> | null;
}

export function emptyStats(): EmulatorStats {
  return { requests: 0, generations: 0, streams: 0, completed: 0, errors: 0, disconnects: 0, clientAborts: 0, lastRequest: null, lastHeaders: null };
}

export interface RunningEmulator {
  /** Base URL to give the provider's SDK (`baseURL`). */
  url: string;
  /** http://host:port */
  origin: string;
  port: number;
  stats: EmulatorStats;
  /** Makes the next `times` generation requests fail with `status` (in the provider's error shape). */
  failNext(status: number, times?: number): void;
  /** Changes the default delay between streamed tokens. */
  setTokenDelay(ms: number): void;
  resetStats(): void;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export async function listen(handler: Handler, options: EmulatorOptions): Promise<{ origin: string; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    handler(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error), type: 'server_error', code: null } });
      else res.destroy();
    });
  });
  // Streams stay open for a while; keep-alive sockets must not delay close().
  server.keepAliveTimeout = 1000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    origin,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

export class BodyError extends Error {}

const MAX_BODY_BYTES = 10 * 1024 * 1024;

export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyError('Request body too large.');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) throw new BodyError('We could not parse the JSON body of your request (empty body).');
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new BodyError('The request body must be a JSON object.');
    return parsed as Record<string, unknown>;
  } catch (error) {
    if (error instanceof BodyError) throw error;
    throw new BodyError('We could not parse the JSON body of your request.');
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function startSse(res: ServerResponse, headers: Record<string, string> = {}) {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });
  res.flushHeaders();
}

/** One SSE frame; `event` omitted for OpenAI-style `data:`-only streams. */
export function sseFrame(data: unknown, event?: string): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const randomId = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;

/** Text of a message `content`: a string, or an array of parts of which the text ones count. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map(partText).join('');
}

/**
 * A content part as text. Images and documents (OpenAI's image_url data URLs, Anthropic's base64 image and
 * document blocks) read as a marker naming their type and size, so an [echo] answer shows the model got them.
 */
function partText(part: unknown): string {
  if (!part || typeof part !== 'object') return '';
  const p = part as { type?: unknown; text?: unknown; image_url?: { url?: unknown }; source?: { media_type?: unknown; data?: unknown }; title?: unknown };
  if (typeof p.text === 'string') return p.text;
  if (p.type === 'image_url' && typeof p.image_url?.url === 'string') {
    const match = /^data:([^;,]+);base64,(.*)$/s.exec(p.image_url.url);
    return match ? `[image ${match[1]} ${Buffer.from(match[2], 'base64').length} bytes]` : `[image ${p.image_url.url.slice(0, 100)}]`;
  }
  if ((p.type === 'image' || p.type === 'document') && typeof p.source?.data === 'string') {
    const title = typeof p.title === 'string' ? ` "${p.title}"` : '';
    return `[${p.type} ${String(p.source.media_type)}${title} ${Buffer.from(p.source.data, 'base64').length} bytes]`;
  }
  return '';
}

/**
 * Drops the connection the way a network failure would: what was written still reaches the client,
 * then the socket closes without finishing the response (chunked body left incomplete).
 */
export function dropConnection(res: ServerResponse) {
  const socket = res.socket;
  if (!socket) return;
  socket.end();
  setTimeout(() => socket.destroy(), 100).unref();
}

/** True when the client went away (so a paced stream stops writing). */
export function clientGone(res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded;
}

/** A queue of forced failures (`failNext`). */
export class FailureQueue {
  private queue: number[] = [];
  push(status: number, times: number) {
    for (let i = 0; i < times; i++) this.queue.push(status);
  }
  take(): number | null {
    return this.queue.shift() ?? null;
  }
}

/** Masks a key the way providers echo it in 401 messages: first 3 and last 4 characters. */
export function maskKey(key: string): string {
  return key.length <= 8 ? '*'.repeat(key.length) : `${key.slice(0, 3)}${'*'.repeat(Math.min(key.length - 7, 20))}${key.slice(-4)}`;
}

export type StreamOutcome = 'done' | 'disconnected' | 'stream-error' | 'client-gone';

/**
 * Writes one frame per token at the planned pace. Stops early to drop the socket (`[disconnect:N]`),
 * to let the caller send a provider error event (`[stream-error:N]`), or when the client went away.
 */
export async function writeTokens(
  res: ServerResponse,
  tokens: string[],
  options: { delayMs: number; disconnectAfter: number | null; streamErrorAfter: number | null },
  frame: (token: string) => string,
): Promise<StreamOutcome> {
  let gone = clientGone(res);
  res.once('close', () => {
    gone = true;
  });
  const start = Date.now();
  for (let i = 0; i < tokens.length; i++) {
    if (options.disconnectAfter != null && i >= options.disconnectAfter) return 'disconnected';
    if (options.streamErrorAfter != null && i >= options.streamErrorAfter) return 'stream-error';
    if (options.delayMs > 0) {
      // Pace against the start time so timer granularity does not slow fast rates down. Each token takes
      // its time, the first too (a model's time to first token), so a stop can land before any word.
      const wait = start + (i + 1) * options.delayMs - Date.now();
      if (wait >= 1) await sleep(wait);
    }
    if (gone || clientGone(res)) return 'client-gone';
    res.write(frame(tokens[i]));
  }
  if (options.disconnectAfter != null && options.disconnectAfter <= tokens.length) return 'disconnected';
  if (options.streamErrorAfter != null && options.streamErrorAfter <= tokens.length) return 'stream-error';
  return gone || clientGone(res) ? 'client-gone' : 'done';
}

/**
 * CORS open to the caller's origin (the payment emulators' stand-ins and control calls come from
 * the app's origin). Answers a preflight (204) and returns true; otherwise sets the headers only.
 */
export function cors(req: IncomingMessage, res: ServerResponse, allow: { methods: string; headers: string }): boolean {
  res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
  res.setHeader('vary', 'Origin');
  if (req.method !== 'OPTIONS') return false;
  res.writeHead(204, {
    'access-control-allow-methods': allow.methods,
    'access-control-allow-headers': req.headers['access-control-request-headers'] ?? allow.headers,
    'access-control-max-age': '600',
  });
  res.end();
  return true;
}

/** Options both payment emulators (Stripe, PayPal) take; `Webhook` is the provider's endpoint input. */
export interface PaymentEmulatorOptions<Webhook> {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Endpoints to deliver events to from the start. */
  webhooks?: Webhook[];
  delivery?: Partial<DeliveryOptions>;
}

/** What starting a payment emulator (Stripe, PayPal) gives back, besides its provider's own fields. */
export interface RunningPaymentEmulator<Core, Control, Webhooks, Logged> {
  /** http://host:port */
  origin: string;
  host: string;
  port: number;
  core: Core;
  /** In-process twins of the /_emulator control routes. */
  control: Control;
  webhooks: Webhooks;
  /** Every API call received (newest last), for assertions. */
  requests: Logged[];
  close(): Promise<void>;
}
