import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { AppError } from '../http/errors';
import { safeFetch } from './safe-fetch';
import { notifyWebhook } from './webhook';

/** A local HTTP server that records what it receives. */
async function startRecorder() {
  const hits: { method: string; url: string; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push({ method: req.method ?? '', url: req.url ?? '', body });
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/target` }).end();
      } else if (req.url === '/hang') {
        // never answers: the caller's timeout must end the request
      } else if (req.url === '/fail') {
        res.writeHead(500).end('boom');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, path: req.url }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, port, hits };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('safeFetch: refused targets (default configuration)', () => {
  let t: TestApp;
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  beforeAll(async () => {
    t = await createTestApp();
    recorder = await startRecorder();
  });
  afterAll(async () => {
    recorder.server.closeAllConnections();
    recorder.server.close();
    await t.close();
  });

  it.each([
    'http://127.0.0.1/',
    'http://localhost/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://10.0.0.5/hook',
    'http://2130706433/',
    'http://0x7f.0.0.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0/',
    'http://100.64.1.1/',
    'http://192.168.0.10/',
    'http://172.16.5.4/',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'file:///etc/passwd',
    'ftp://example.com/',
    'gopher://127.0.0.1/',
    'not a url',
  ])('refuses %s with outbound_url_refused', async (url) => {
    const err = await refusal(safeFetch(t.ctx, url));
    expect(err.status).toBe(400);
    expect(err.errorId).toBe('outbound_url_refused');
  });

  it('never reaches a private server that is not on the allow list', async () => {
    const err = await refusal(safeFetch(t.ctx, `http://127.0.0.1:${recorder.port}/secret`));
    expect(err.errorId).toBe('outbound_url_refused');
    expect(recorder.hits).toHaveLength(0);
  });
});

describe('safeFetch: allowed host (OUTBOUND_ALLOW_HOSTS)', () => {
  let t: TestApp;
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  beforeAll(async () => {
    t = await createTestApp({ OUTBOUND_ALLOW_HOSTS: '127.0.0.1, localhost' });
    recorder = await startRecorder();
  });
  afterAll(async () => {
    recorder.server.closeAllConnections();
    recorder.server.close();
    await t.close();
  });

  it('calls an allowed host and returns its response', async () => {
    const res = await safeFetch(t.ctx, `http://127.0.0.1:${recorder.port}/hook?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, path: '/hook?x=1' });
    expect(recorder.hits.at(-1)).toEqual({ method: 'POST', url: '/hook?x=1', body: '{"hello":"world"}' });
  });

  it('resolves an allowed host name and connects to the checked address', async () => {
    const res = await safeFetch(t.ctx, `http://localhost:${recorder.port}/named`);
    expect(res.status).toBe(200);
    expect(recorder.hits.at(-1)?.url).toBe('/named');
  });

  it('does not follow a redirect', async () => {
    const before = recorder.hits.length;
    const err = await refusal(safeFetch(t.ctx, `http://127.0.0.1:${recorder.port}/redirect`));
    expect(err.errorId).toBe('outbound_url_refused');
    expect(err.messageKey).toBe('outbound_redirect_refused');
    expect(recorder.hits.slice(before).map((h) => h.url)).toEqual(['/redirect']);
  });

  it('gives up after the timeout', async () => {
    const err = await refusal(safeFetch(t.ctx, `http://127.0.0.1:${recorder.port}/hang`, { timeoutMs: 300 }));
    expect(err.status).toBe(502);
    expect(err.errorId).toBe('outbound_request_failed');
    expect(err.extra.code).toBe('timeout');
  });

  it('caps the response size', async () => {
    const err = await refusal(safeFetch(t.ctx, `http://127.0.0.1:${recorder.port}/big`, { maxResponseBytes: 5 }));
    expect(err.extra.code).toBe('response_too_large');
  });

  it('still refuses other private addresses', async () => {
    const err = await refusal(safeFetch(t.ctx, 'http://169.254.169.254/'));
    expect(err.errorId).toBe('outbound_url_refused');
  });

  it('notifyWebhook posts the event and only logs a failing webhook', async () => {
    const logged: string[] = [];
    const log = { info: (_o: unknown, msg: string) => logged.push(`info:${msg}`), warn: (_o: unknown, msg: string) => logged.push(`warn:${msg}`) };
    await notifyWebhook(t.ctx, log as never, 'welcome_email', `http://127.0.0.1:${recorder.port}/wh`, { user_id: 7 });
    expect(JSON.parse(recorder.hits.at(-1)?.body ?? '{}')).toEqual({ event: 'welcome_email', user_id: 7 });
    await expect(notifyWebhook(t.ctx, log as never, 'welcome_email', `http://127.0.0.1:${recorder.port}/fail`, {})).resolves.toBeUndefined();
    await expect(notifyWebhook(t.ctx, log as never, 'welcome_email', 'http://10.1.1.1/', {})).resolves.toBeUndefined();
    expect(logged).toEqual(['info:webhook delivered', 'warn:webhook failed', 'warn:webhook failed']);
  });
});
