import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { desc, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema';
import { buildUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { consoleMailLog } from './log';
import { createMailer, MailDeliveryError } from './mailer';
import { resetPasswordMail, welcomeMail } from './templates';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on an ephemeral port (plain SMTP, no auth) that keeps what it receives. */
async function startSmtp() {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString()));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { server, port, received };
}

/** A port on which nothing listens. */
async function closedPort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const lastMail = async (t: TestApp, to: string) =>
  (await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.mailId)).limit(1))[0];

describe('mail over SMTP', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: 'Pluma <hello@pluma.test>' });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
    await t.close();
  });

  it('delivers through SMTP and records the message as sent', async () => {
    await t.ctx.services.mail!.send(welcomeMail({ to: 'Reader@Example.com', lang: 'en', name: 'Reader', appName: 'Pluma', url: 'https://pluma.test' }));
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].from).toBe('hello@pluma.test');
    expect(smtp.received[0].to).toEqual(['reader@example.com']);
    expect(smtp.received[0].raw).toContain('Subject: Welcome to Pluma');
    expect(smtp.received[0].raw).toContain('Your Pluma account is ready.');
    const row = await lastMail(t, 'reader@example.com');
    expect(row).toMatchObject({ kind: 'welcome', status: 'sent', subject: 'Welcome to Pluma', error: null });
    expect(row.sentAt).toBeInstanceOf(Date);
  });

  it('records a failed delivery and throws, so the caller can tell the user', async () => {
    const port = await closedPort();
    const logged: string[] = [];
    const mailer = createMailer({ ...t.ctx, env: { ...t.ctx.env, SMTP_URL: `smtp://127.0.0.1:${port}` } }, consoleMailLog('info', (line) => logged.push(line)));
    const error = await mailer
      .deliver(resetPasswordMail({ to: 'fail@example.com', lang: 'es', name: 'F', appName: 'Pluma', link: 'https://x/reset-password?token=abc' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailDeliveryError);
    const row = await lastMail(t, 'fail@example.com');
    expect(row.status).toBe('failed');
    expect(row.error).toBeTruthy();
    expect(row.subject).toBe('Restablece tu contraseña de Pluma');
    expect(JSON.parse(logged.at(-1)!)).toMatchObject({ level: 50, msg: 'mail failed', to: 'fail@example.com' });
  });
});

describe('mail without SMTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('stores the message and logs the reset link for the operator', async () => {
    const logged: string[] = [];
    const mailer = createMailer(t.ctx, consoleMailLog('info', (line) => logged.push(line)));
    const link = 'https://pluma.test/reset-password?token=tok123';
    const result = await mailer.deliver(resetPasswordMail({ to: 'op@example.com', lang: 'en', name: 'Op', appName: 'Pluma', link }));
    expect(result.status).toBe('stored');
    const row = await lastMail(t, 'op@example.com');
    expect(row).toMatchObject({ status: 'stored', kind: 'reset_password', subject: 'Reset your Pluma password' });
    expect(row.text).toContain(link);
    const line = JSON.parse(logged[0]);
    expect(line).toMatchObject({ level: 30, to: 'op@example.com', subject: 'Reset your Pluma password', link });
  });

  it('the log honours LOG_LEVEL', () => {
    const logged: string[] = [];
    consoleMailLog('warn', (line) => logged.push(line)).info({}, 'hidden');
    consoleMailLog('silent', (line) => logged.push(line)).error({}, 'hidden too');
    expect(logged).toEqual([]);
  });

  it('GET /api/admin/outbox: admins read the newest rows, filtered by recipient; others get 403', async () => {
    await t.ctx.services.mail!.send(welcomeMail({ to: 'one@example.com', lang: 'en', name: 'One', appName: 'Pluma', url: 'https://p' }));
    await t.ctx.services.mail!.send(welcomeMail({ to: 'two@example.com', lang: 'es', name: 'Two', appName: 'Pluma', url: 'https://p' }));
    await t.ctx.services.mail!.send(resetPasswordMail({ to: 'two@example.com', lang: 'es', name: 'Two', appName: 'Pluma', link: 'https://p/r?token=1' }));

    const customer = await buildUser(t.ctx);
    const manager = await buildUser(t.ctx, { staffRole: 'manager' });
    expect((await t.app.inject({ url: '/api/admin/outbox' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/admin/outbox', headers: customer.auth })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/admin/outbox', headers: manager.auth })).statusCode).toBe(403);

    const admin = await buildUser(t.ctx, { staffRole: 'admin' });
    const res = await t.app.inject({ url: '/api/admin/outbox?to=TWO@example.com&limit=1', headers: admin.auth });
    expect(res.statusCode).toBe(200);
    const { items } = res.json();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ to: 'two@example.com', kind: 'reset_password', status: 'stored', text: expect.stringContaining('https://p/r?token=1') });
    const all = (await t.app.inject({ url: '/api/admin/outbox', headers: admin.auth })).json().items;
    expect(all.map((m: { to: string }) => m.to).slice(0, 3)).toEqual(['two@example.com', 'two@example.com', 'one@example.com']);
    expect((await t.app.inject({ url: '/api/admin/outbox?limit=1000', headers: admin.auth })).statusCode).toBe(400);
  });
});
