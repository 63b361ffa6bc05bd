// Clients for the chat benchmarks: a small JSON-over-HTTP client bound to a chosen loopback address, the
// Socket.IO client the web app uses (websocket only) with a byte counter, and percentiles.
//
// Why loopback addresses: the server rate-limits per client IP (sign-up 5/min, POST /api/messages 60/min).
// On Linux all of 127.0.0.0/8 is the loopback interface, so each simulated user connects from its own
// address (127.0.1.x) and is limited like a separate person — no forged X-Forwarded-For, no server knob.
import http from 'node:http';
import { io } from 'socket.io-client';

/** The loopback address of simulated client `index` (0-based; 127.1.0.2, 127.1.0.3, … up to 62,500 clients). */
export function clientAddress(index) {
  return `127.1.${Math.floor(index / 250)}.${2 + (index % 250)}`;
}

/** JSON requests to one server from one loopback address, over kept-alive connections. */
export class ApiClient {
  constructor(baseUrl, { localAddress = '127.0.0.1', token = null } = {}) {
    this.url = new URL(baseUrl);
    this.localAddress = localAddress;
    this.token = token;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  }

  withToken(token) {
    const copy = new ApiClient(this.url.origin, { localAddress: this.localAddress, token });
    copy.agent = this.agent;
    return copy;
  }

  /** Resolves { status, body } (body parsed when JSON); never rejects on an HTTP status. */
  request(method, path, body) {
    const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const headers = { accept: 'application/json' };
    if (payload) Object.assign(headers, { 'content-type': 'application/json', 'content-length': payload.length });
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: this.url.hostname, port: this.url.port, path, method, headers, agent: this.agent, localAddress: this.localAddress },
        (res) => {
          const chunks = [];
          res.on('data', (chunk) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed = text;
            try {
              parsed = text ? JSON.parse(text) : null;
            } catch {
              // not JSON: keep the text for the error message
            }
            resolve({ status: res.statusCode, body: parsed });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload ?? undefined);
    });
  }

  /** Like request(), but throws unless the status is `expected`; returns the body. */
  async expect(expected, method, path, body) {
    const res = await this.request(method, path, body);
    if (res.status !== expected) {
      throw new Error(`${method} ${path} answered ${res.status} (wanted ${expected}): ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    return res.body;
  }

  close() {
    this.agent.destroy();
  }
}

/**
 * A user's Socket.IO connection (websocket transport, as the web app). Counts every byte of every
 * websocket message received (engine.io packets: type character + data; no compression is negotiated).
 */
export function connectSocket(baseUrl, token, { localAddress } = {}) {
  const socket = io(baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 10_000,
    auth: { token },
    localAddress,
  });
  const counter = { bytes: 0, packets: 0 };
  socket.io.on('open', () => {
    socket.io.engine.on('packet', (packet) => {
      counter.packets++;
      counter.bytes += 1 + (typeof packet.data === 'string' ? Buffer.byteLength(packet.data) : (packet.data?.byteLength ?? 0));
    });
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve({ socket, counter }));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(new Error(`socket refused: ${err.message} ${JSON.stringify(err.data ?? {})}`));
    });
  });
}

/**
 * Routes a socket's chat events to whoever waits for one conversation: `next(conversationId)` gives
 * promises for the first `message_stream` frame and the end (`message_stream_end` or `message`), with
 * arrival times, frame count and socket bytes; a provider error rejects them.
 */
export class ConversationWatcher {
  constructor(socket, counter) {
    this.counter = counter;
    this.waiting = new Map();
    socket.on('message_stream', (payload) => {
      const w = this.waiting.get(payload.conversation_id);
      if (!w) return;
      const now = performance.now();
      w.frames++;
      w.deltaChars += payload.content.length;
      if (w.frames === 1) {
        w.firstFrameAt = now;
        w.resolveFirst(now);
      }
      w.lastFrameAt = now;
      w.bytesAtLastFrame = this.counter.bytes;
    });
    const finish = (payload) => {
      const w = this.waiting.get(payload.conversation_id);
      if (!w) return;
      this.waiting.delete(payload.conversation_id);
      w.endAt = performance.now();
      w.bytes = this.counter.bytes - w.bytesAtStart;
      // The engine counts a packet before Socket.IO delivers its event, so this is the end event's size.
      w.endBytes = this.counter.bytes - (w.bytesAtLastFrame ?? w.bytesAtStart);
      w.finishReason = payload.finish_reason ?? payload.message?.finish_reason ?? null;
      w.contentChars = payload.content.length;
      w.resolveEnd(w);
    };
    socket.on('message_stream_end', finish);
    socket.on('message', finish);
    socket.on('openai-error', (payload) => {
      const w = this.waiting.get(payload.conversation_id);
      if (!w) return;
      this.waiting.delete(payload.conversation_id);
      w.fail(new Error(`openai-error ${payload.status} ${payload.code ?? ''}: ${payload.message}`));
    });
  }

  /** Call right before sending the message; one answer per conversation at a time. */
  next(conversationId, timeoutMs = 60_000) {
    const w = { frames: 0, deltaChars: 0, bytesAtStart: this.counter.bytes, firstFrameAt: null, lastFrameAt: null };
    w.first = new Promise((resolve, reject) => Object.assign(w, { resolveFirst: resolve, rejectFirst: reject }));
    w.end = new Promise((resolve, reject) => Object.assign(w, { resolveEnd: resolve, rejectEnd: reject }));
    w.first.catch(() => undefined);
    const timer = setTimeout(() => w.fail(new Error(`no end of the answer in conversation ${conversationId} within ${timeoutMs} ms`)), timeoutMs);
    w.end.then(
      () => clearTimeout(timer),
      () => clearTimeout(timer),
    );
    w.fail = (err) => {
      this.waiting.delete(conversationId);
      w.rejectFirst(err);
      w.rejectEnd(err);
    };
    this.waiting.set(conversationId, w);
    return w;
  }
}

/** Nearest-rank percentile (p in 0..100) of a list of numbers. */
export function percentile(values, p) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Runs `task(index)` for 0..count-1 with at most `limit` at a time; resolves with the results in order. */
export async function inParallel(count, limit, task) {
  const results = new Array(count);
  let nextIndex = 0;
  const worker = async () => {
    while (nextIndex < count) {
      const index = nextIndex++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
