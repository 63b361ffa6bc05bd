// The public widget API through the real app, the demo AI (the OpenAI emulator) and a real database (contract
// B "Public API"): an allowed website starts a session and gets the avatar's answer streamed as server-sent
// events, saved and charged to the OWNER once; every refusal in the contract's shape ({ code, message } in the
// visitor's language) and without CORS headers for a website not listed; rotated keys, forged, expired and
// foreign visitor tokens; a disabled widget; an owner out of words or without access; concurrent sends that
// cannot overspend; the rate limits; resuming and new chats; a visitor who leaves mid-answer; the owner's view
// of the conversations; the socket refusing a visitor token.
import { countWords } from '@pluma/common/rules/token-estimate';
import type { Widget, WidgetStartResponse } from '@pluma/common/widgets';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appConfig, avatars, creditLedger, users, widgetMessages, widgets, widgetSessions } from '../../db/schema';
import { connectSocket, listenLocally, type ConnectRefusal } from '../../platform/realtime/socket-test-helpers';
import { buildUser, type BuiltUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { testDbKind } from '../../test/test-db';
import { featureSwitchesChanged } from '../appconfig';
import { signVisitorToken } from './visitor-token';

const SHOP = 'https://shop.example.com';
const OTHER = 'https://evil.example.net';

interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

function parseSse(body: string): SseEvent[] {
  return body
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? '{}';
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

let ipCounter = 0;
/** A fresh visitor address per test, so the per-address limits of one test do not reach another. */
const freshIp = () => `10.77.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

describe(`widget public API (${testDbKind()})`, () => {
  let t: TestApp;
  let url: string;
  let owner: BuiltUser;
  let avatarId: number;

  const owned = (who: BuiltUser, method: 'GET' | 'POST' | 'PUT', path: string, payload?: object) =>
    t.app.inject({ method, url: path, headers: who.auth, ...(payload ? { payload } : {}) });
  const makeWidget = async (who: BuiltUser, fields: object = {}, avatar = avatarId) => {
    const res = await owned(who, 'POST', '/api/widgets', { avatar_id: avatar, name: 'Shop chat', allowed_origins: [SHOP], ...fields });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Widget;
  };
  const start = (key: string, body: object = {}, options: { origin?: string | null; ip?: string; lang?: string } = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/widget/${key}/start`,
      headers: {
        ...(options.origin === null ? {} : { origin: options.origin ?? SHOP }),
        ...(options.lang ? { 'accept-language': options.lang } : {}),
      },
      payload: body,
      remoteAddress: options.ip ?? freshIp(),
    });
  const started = async (key: string, body: object = {}, ip?: string) => {
    const res = await start(key, body, { ip });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as WidgetStartResponse;
  };
  const send = (key: string, token: string, content: string, options: { origin?: string | null; ip?: string; lang?: string } = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/widget/${key}/messages`,
      headers: { ...(options.origin === null ? {} : { origin: options.origin ?? SHOP }), authorization: `Bearer ${token}` },
      payload: { content, ...(options.lang ? { lang: options.lang } : {}) },
      remoteAddress: options.ip ?? freshIp(),
    });
  const wordsOf = async (who: BuiltUser) => {
    const [row] = await t.ctx.db.select({ available: users.availableWords, held: users.heldWords }).from(users).where(eq(users.userId, who.user.userId));
    return row;
  };
  const widgetLedger = (who: BuiltUser) =>
    t.ctx.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, who.user.userId), eq(creditLedger.sourceType, 'widget')));
  const ownerWithAvatar = async (words = 10_000) => {
    const who = await buildUser(t.ctx, { access: true });
    await t.ctx.db.update(users).set({ availableWords: words }).where(eq(users.userId, who.user.userId));
    const [avatar] = await t.ctx.db.insert(avatars).values({ userId: who.user.userId, name: 'Helper', context: 'You help shoppers.' }).returning();
    return { who, avatarId: avatar.avatarId };
  };

  beforeAll(async () => {
    t = await createTestApp();
    url = await listenLocally(t.app);
    ({ who: owner, avatarId } = await ownerWithAvatar());
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('an allowed website starts a session, streams the answer, saves it and charges the owner once', async () => {
    const widget = await makeWidget(owner);
    const before = await wordsOf(owner);
    const startRes = await start(widget.public_key);
    expect(startRes.statusCode, startRes.body).toBe(200);
    expect(startRes.headers['access-control-allow-origin']).toBe(SHOP);
    expect(startRes.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const session = startRes.json() as WidgetStartResponse;
    expect(session.widget).toEqual({ name: 'Shop chat', accent_color: '#ff0000', image_url: null });
    expect(session.messages).toEqual([]);
    expect(session.session_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the hash of the session token is stored.
    const [stored] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.sessionId, session.session.session_id));
    expect(stored.tokenHash).not.toContain(session.session_token);
    expect(stored.origin).toBe(SHOP);

    const res = await send(widget.public_key, session.visitor_token, '[words:40] Which shoes for trail running?');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    expect(res.headers['access-control-allow-origin']).toBe(SHOP);
    const events = parseSse(res.body);
    const deltas = events.filter((e) => e.event === 'delta').map((e) => e.data.text as string);
    expect(deltas.length).toBeGreaterThan(0);
    const done = events.at(-1);
    expect(done?.event).toBe('done');
    const message = (done?.data as { message: { role: string; content: string; status: string } }).message;
    expect(message).toMatchObject({ role: 'assistant', status: 'done' });
    expect(deltas.join('')).toBe(message.content);
    expect(countWords(message.content)).toBe(40);

    const rows = await t.ctx.db.select().from(widgetMessages).where(eq(widgetMessages.sessionId, session.session.session_id)).orderBy(widgetMessages.messageId);
    expect(rows.map((r) => [r.role, r.status])).toEqual([
      ['user', 'done'],
      ['assistant', 'done'],
    ]);
    expect(rows[1].content).toBe(message.content);
    const ledger = await widgetLedger(owner);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ sourceId: String(rows[1].messageId), words: -40 });
    const after = await wordsOf(owner);
    expect(after.available).toBe(before.available - 40);
    expect(after.held).toBe(0);
    const [w] = await t.ctx.db.select().from(widgets).where(eq(widgets.widgetId, widget.widget_id));
    expect(w.wordsUsed).toBe(40);
    const [s] = await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.sessionId, session.session.session_id));
    expect(s.messagesCount).toBe(2);

    // The owner reads the conversation; another owner cannot.
    const list = await owned(owner, 'GET', `/api/widgets/${widget.widget_id}/sessions`);
    expect(list.json().sessions[0]).toMatchObject({ session_id: session.session.session_id, origin: SHOP, messages_count: 2, preview: '[words:40] Which shoes for trail running?' });
    const detail = await owned(owner, 'GET', `/api/widgets/${widget.widget_id}/sessions/${session.session.session_id}`);
    expect(detail.json().messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    const stranger = await buildUser(t.ctx, { access: true });
    expect((await owned(stranger, 'GET', `/api/widgets/${widget.widget_id}/sessions/${session.session.session_id}`)).statusCode).toBe(404);
    expect((await owned(stranger, 'GET', `/api/widgets/${widget.widget_id}/sessions`)).statusCode).toBe(404);
  });

  it('refuses a website not listed and a missing Origin (403, no CORS headers), an unknown key (404); the preflight likewise', async () => {
    const widget = await makeWidget(owner);
    const session = await started(widget.public_key);
    for (const origin of [OTHER, null, 'https://shop.example.com:8443', 'http://shop.example.com', 'null']) {
      const res = await start(widget.public_key, {}, { origin });
      expect(res.statusCode, String(origin)).toBe(403);
      expect(res.json()).toEqual({ code: 'origin_not_allowed', message: 'This chat is not available on this website.' });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const msg = await send(widget.public_key, session.visitor_token, 'Hello', { origin });
      expect(msg.statusCode).toBe(403);
      expect(msg.headers['access-control-allow-origin']).toBeUndefined();
    }
    const es = await start(widget.public_key, { lang: 'es' }, { origin: OTHER });
    expect(es.json().message).toBe('Este chat no está disponible en este sitio web.');
    const unknown = await start('pw_' + 'a'.repeat(32));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('widget_not_found');
    expect(unknown.headers['access-control-allow-origin']).toBeUndefined();
    expect((await start('not-a-key')).statusCode).toBe(404);

    const preflight = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: `/api/widget/${widget.public_key}/messages`,
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
    const ok = await preflight(SHOP);
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(SHOP);
    expect(String(ok.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
    const refused = await preflight(OTHER);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    // Nothing was saved for the refused requests.
    expect(await t.ctx.db.select().from(widgetSessions).where(eq(widgetSessions.widgetId, widget.widget_id))).toHaveLength(1);
  });

  it("accepts the app's own origin (the embedded page) only when the widget lists some website", async () => {
    const own = 'http://localhost';
    const listed = await makeWidget(owner);
    expect((await start(listed.public_key, {}, { origin: own })).statusCode).toBe(200);
    const none = await makeWidget(owner, { allowed_origins: [] });
    expect((await start(none.public_key, {}, { origin: own })).statusCode).toBe(403);
    expect((await start(none.public_key, {}, { origin: SHOP })).statusCode).toBe(403);
  });

  it('a rotated key is 404, the visitor tokens minted under it are 401 and its sessions end; a new session works', async () => {
    const widget = await makeWidget(owner);
    const session = await started(widget.public_key);
    const rotated = (await owned(owner, 'POST', `/api/widgets/${widget.widget_id}/rotate-key`)).json() as Widget;
    const old = await start(widget.public_key);
    expect(old.statusCode).toBe(404);
    const stale = await send(rotated.public_key, session.visitor_token, 'Hello');
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toEqual({ code: 'visitor_token_invalid', message: 'Your chat session has expired. Please start again.' });
    expect(stale.headers['access-control-allow-origin']).toBe(SHOP);
    // The old session is not resumed under the new key: a new one is opened instead.
    const fresh = await started(rotated.public_key, { session_token: session.session_token });
    expect(fresh.session.session_id).not.toBe(session.session.session_id);
    expect(fresh.session_token).not.toBe(session.session_token);
    expect(fresh.messages).toEqual([]);
    expect((await send(rotated.public_key, fresh.visitor_token, '[words:3] Hi')).statusCode).toBe(200);
    // Even a visitor token of the old session signed under the new key version is refused: the session is over.
    const [{ keyVersion }] = await t.ctx.db.select({ keyVersion: widgets.keyVersion }).from(widgets).where(eq(widgets.widgetId, widget.widget_id));
    const forged = signVisitorToken(t.ctx.env.APP_SECRET, { widgetId: widget.widget_id, keyVersion, sessionId: session.session.session_id });
    const refused = await send(rotated.public_key, forged.token, 'Hello');
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('visitor_token_invalid');
    // The new session resumes with its own session_token.
    const resumed = await started(rotated.public_key, { session_token: fresh.session_token });
    expect(resumed.session.session_id).toBe(fresh.session.session_id);
  });

  it('refuses forged, altered, expired and foreign visitor tokens (401)', async () => {
    const widget = await makeWidget(owner);
    const other = await makeWidget(owner);
    const session = await started(widget.public_key);
    const otherSession = await started(other.public_key);
    const secret = t.ctx.env.APP_SECRET;
    const [head, body, sig] = session.visitor_token.split('.');
    const altered = `${head}.${Buffer.from(JSON.stringify({ w: widget.widget_id, k: 1, s: otherSession.session.session_id, e: Date.now() + 60_000 })).toString('base64url')}.${sig}`;
    const expired = signVisitorToken(secret, { widgetId: widget.widget_id, keyVersion: 1, sessionId: session.session.session_id }, Date.now() - 31 * 60_000).token;
    const wrongSecret = signVisitorToken('another-secret-another-secret-0123456', { widgetId: widget.widget_id, keyVersion: 1, sessionId: session.session.session_id }).token;
    // Genuine, but for the other widget's session, or naming another widget's session under this widget.
    const crossSession = signVisitorToken(secret, { widgetId: widget.widget_id, keyVersion: 1, sessionId: otherSession.session.session_id }).token;
    for (const token of [altered, expired, wrongSecret, crossSession, otherSession.visitor_token, `${head}.${body}.`, 'garbage', owner.token]) {
      const res = await send(widget.public_key, token, 'Hello');
      expect(res.statusCode, token.slice(0, 30)).toBe(401);
      expect(res.json().code).toBe('visitor_token_invalid');
    }
    const none = await t.app.inject({ method: 'POST', url: `/api/widget/${widget.public_key}/messages`, headers: { origin: SHOP }, payload: { content: 'Hi' } });
    expect(none.statusCode).toBe(401);
    expect(await t.ctx.db.select().from(widgetMessages).where(eq(widgetMessages.sessionId, session.session.session_id))).toHaveLength(0);
  });

  it('a disabled widget answers 403 widget_disabled; an owner without access 403; validation texts follow the language', async () => {
    const widget = await makeWidget(owner);
    const session = await started(widget.public_key);
    await owned(owner, 'PUT', `/api/widgets/${widget.widget_id}`, { enabled: false });
    const disabled = await start(widget.public_key, { lang: 'es' });
    expect(disabled.statusCode).toBe(403);
    expect(disabled.json()).toEqual({ code: 'widget_disabled', message: 'Este chat no está disponible en este momento.' });
    expect((await send(widget.public_key, session.visitor_token, 'Hello')).json().code).toBe('widget_disabled');
    await owned(owner, 'PUT', `/api/widgets/${widget.widget_id}`, { enabled: true });

    const tooLong = await send(widget.public_key, session.visitor_token, 'x'.repeat(2001), { lang: 'es' });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toEqual({ code: 'validation_error', message: 'El mensaje puede tener como máximo 2000 caracteres.' });
    expect(tooLong.headers['access-control-allow-origin']).toBe(SHOP);

    const lapsed = await buildUser(t.ctx);
    const [avatar] = await t.ctx.db.insert(avatars).values({ userId: lapsed.user.userId, name: 'Lapsed', context: 'x' }).returning();
    const [row] = await t.ctx.db
      .insert(widgets)
      .values({ userId: lapsed.user.userId, avatarId: avatar.avatarId, name: 'Lapsed', allowedOrigins: [SHOP], publicKey: 'pw_' + 'L'.repeat(32) })
      .returning();
    const unavailable = await start(row.publicKey);
    expect(unavailable.statusCode).toBe(403);
    expect(unavailable.json()).toEqual({ code: 'widget_unavailable', message: 'This chat is not available right now.' });
  });

  it('an owner out of words gets 402 widget_limit_reached and nothing is saved; concurrent sends never overspend', async () => {
    const { who, avatarId: ownAvatar } = await ownerWithAvatar(0);
    const widget = await makeWidget(who, {}, ownAvatar);
    const session = await started(widget.public_key);
    const spent = await send(widget.public_key, session.visitor_token, 'Hello');
    expect(spent.statusCode).toBe(402);
    expect(spent.json()).toEqual({ code: 'widget_limit_reached', message: 'This chat has reached its limit for now. Please try again later.' });
    expect(await t.ctx.db.select().from(widgetMessages).where(eq(widgetMessages.sessionId, session.session.session_id))).toHaveLength(0);

    // 30 words left, five visitors at once each asking for 100: at most 30 are written and charged in all.
    await t.ctx.db.update(users).set({ availableWords: 30 }).where(eq(users.userId, who.user.userId));
    const sessions = await Promise.all(Array.from({ length: 5 }, () => started(widget.public_key)));
    const results = await Promise.all(sessions.map((s) => send(widget.public_key, s.visitor_token, '[words:100] Tell me everything')));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 402)).toBe(true);
    const ledger = await widgetLedger(who);
    expect(ledger).toHaveLength(statuses.filter((s) => s === 200).length);
    const charged = -ledger.reduce((sum, e) => sum + e.words, 0);
    expect(charged).toBeLessThanOrEqual(30);
    const answers = await t.ctx.db.select().from(widgetMessages).innerJoin(widgetSessions, eq(widgetSessions.sessionId, widgetMessages.sessionId)).where(and(eq(widgetSessions.widgetId, widget.widget_id), eq(widgetMessages.role, 'assistant')));
    expect(answers.reduce((sum, a) => sum + countWords(a.widget_messages.content), 0)).toBe(charged);
    const after = await wordsOf(who);
    expect(after.available).toBe(30 - charged);
    expect(after.held).toBe(0);
  });

  it('limits the rate per session, per address (429 rate_limited, still with CORS for an allowed website)', async () => {
    const widget = await makeWidget(owner);
    const ip = freshIp();
    const session = await started(widget.public_key, {}, ip);
    // The session limit counts before validation: empty messages are enough to reach it.
    const codes: number[] = [];
    for (let i = 0; i < 13; i++) codes.push((await send(widget.public_key, session.visitor_token, '', { ip: freshIp() })).statusCode);
    expect(codes.slice(0, 12).every((c) => c === 400)).toBe(true);
    expect(codes[12]).toBe(429);
    const limited = await send(widget.public_key, session.visitor_token, 'Hi', { lang: 'es' });
    expect(limited.json()).toEqual({ code: 'rate_limited', message: 'Demasiados intentos, espera un momento e inténtalo de nuevo.' });
    expect(limited.headers['access-control-allow-origin']).toBe(SHOP);

    const address = freshIp();
    const starts: number[] = [];
    for (let i = 0; i < 31; i++) starts.push((await start(widget.public_key, {}, { ip: address })).statusCode);
    expect(starts.slice(0, 30).every((c) => c === 200)).toBe(true);
    expect(starts[30]).toBe(429);
    // Another address is not limited.
    expect((await start(widget.public_key, {}, { ip: freshIp() })).statusCode).toBe(200);
  });

  it('resumes a session with its session_token, opens a fresh one with new_chat, never resumes another widget’s', async () => {
    const widget = await makeWidget(owner);
    const first = await started(widget.public_key);
    expect((await send(widget.public_key, first.visitor_token, '[words:5] First question')).statusCode).toBe(200);
    const resumed = await started(widget.public_key, { session_token: first.session_token });
    expect(resumed.session.session_id).toBe(first.session.session_id);
    expect(resumed.session_token).toBe(first.session_token);
    expect(resumed.messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'done'],
      ['assistant', 'done'],
    ]);
    expect(resumed.messages[0].content).toBe('[words:5] First question');
    // The model gets the avatar's context as the system prompt, then the session's turns, then the new message.
    const echo = await send(widget.public_key, resumed.visitor_token, '[echo] Second');
    expect(echo.statusCode).toBe(200);
    const transcript = ((parseSse(echo.body).at(-1)?.data as { message: { content: string } }).message.content).split('\n\n');
    expect(transcript[0]).toMatch(/^system: You are Helper\./);
    expect(transcript.join('\n')).toContain('You help shoppers.');
    expect(transcript.slice(-3).map((line) => line.split(':')[0])).toEqual(['user', 'assistant', 'user']);
    expect(transcript.at(-3)).toBe('user: First question');
    expect(transcript.at(-1)).toBe('user: Second');

    const fresh = await started(widget.public_key, { session_token: first.session_token, new_chat: true });
    expect(fresh.session.session_id).not.toBe(first.session.session_id);
    expect(fresh.session_token).not.toBe(first.session_token);
    expect(fresh.messages).toEqual([]);
    const other = await makeWidget(owner);
    const elsewhere = await started(other.public_key, { session_token: first.session_token });
    expect(elsewhere.session.session_id).not.toBe(first.session.session_id);
    // An answer left 'streaming' by a crashed process long ago shows as failed; a recent one is left alone.
    const [dead, live] = await t.ctx.db
      .insert(widgetMessages)
      .values([
        { sessionId: first.session.session_id, role: 'assistant', content: 'Half', status: 'streaming', updatedAt: new Date(Date.now() - 13 * 60_000) },
        { sessionId: first.session.session_id, role: 'assistant', content: 'Going', status: 'streaming' },
      ])
      .returning();
    const swept = await started(widget.public_key, { session_token: first.session_token });
    expect(swept.messages.slice(-2).map((m) => [m.content, m.status])).toEqual([
      ['Half', 'failed'],
      ['Going', 'streaming'],
    ]);
    await t.ctx.db.delete(widgetMessages).where(eq(widgetMessages.messageId, live.messageId));
    expect(dead.messageId).toBeLessThan(live.messageId);
    // An expired session is not resumed.
    await t.ctx.db.update(widgetSessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(widgetSessions.sessionId, first.session.session_id));
    expect((await started(widget.public_key, { session_token: first.session_token })).session.session_id).not.toBe(first.session.session_id);
    expect((await send(widget.public_key, resumed.visitor_token, 'Hello')).statusCode).toBe(401);
  });

  it('finishes and saves the answer when the visitor leaves mid-answer, charged once', async () => {
    const widget = await makeWidget(owner);
    const session = await started(widget.public_key);
    const controller = new AbortController();
    const res = await fetch(`${url}/api/widget/${widget.public_key}/messages`, {
      method: 'POST',
      headers: { origin: SHOP, authorization: `Bearer ${session.visitor_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: '[words:30] [rate:20] A long answer please' }),
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('event: delta');
    controller.abort();
    await reader.cancel().catch(() => undefined);

    let answer: typeof widgetMessages.$inferSelect | undefined;
    for (let i = 0; i < 100; i++) {
      [answer] = await t.ctx.db
        .select()
        .from(widgetMessages)
        .where(and(eq(widgetMessages.sessionId, session.session.session_id), eq(widgetMessages.role, 'assistant')));
      if (answer?.status !== 'streaming') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answer?.status).toBe('done');
    expect(countWords(answer?.content ?? '')).toBe(30);
    // The charge follows the final save.
    let entries: (typeof creditLedger.$inferSelect)[] = [];
    for (let i = 0; i < 50 && entries.length === 0; i++) {
      entries = (await widgetLedger(owner)).filter((e) => e.sourceId === String(answer?.messageId));
      if (entries.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(entries).toHaveLength(1);
    expect(entries[0].words).toBe(-30);
  });

  it("the visitor's Stop ends their own answer as 'stopped', its text kept and only its words charged; another session cannot reach it", async () => {
    const { who, avatarId: avatar } = await ownerWithAvatar();
    const widget = await makeWidget(who, {}, avatar);
    const session = await started(widget.public_key);
    const stranger = await started(widget.public_key);
    const stop = (token: string, origin = SHOP) =>
      t.app.inject({
        method: 'POST',
        url: `/api/widget/${widget.public_key}/messages/stop`,
        headers: { origin, authorization: `Bearer ${token}` },
        remoteAddress: freshIp(),
      });
    // Nothing to stop yet: 404; no token or a forged one: 401; a website not listed: 403.
    expect((await stop(session.visitor_token)).statusCode).toBe(404);
    expect((await stop('forged')).statusCode).toBe(401);
    expect((await stop(session.visitor_token, OTHER)).statusCode).toBe(403);
    const res = await fetch(`${url}/api/widget/${widget.public_key}/messages`, {
      method: 'POST',
      headers: { origin: SHOP, authorization: `Bearer ${session.visitor_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: '[words:400] [rate:30] A long answer please' }),
    });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let body = decoder.decode((await reader.read()).value);
    expect(body).toContain('event: delta');
    // Another session's token reaches only its own (empty) session: 404, and our answer goes on.
    expect((await stop(stranger.visitor_token)).statusCode).toBe(404);
    const stopped = await stop(session.visitor_token);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.headers['access-control-allow-origin']).toBe(SHOP);
    const message = stopped.json().message as { role: string; content: string; status: string };
    expect(message).toMatchObject({ role: 'assistant', status: 'stopped' });
    const words = countWords(message.content);
    expect(words).toBeGreaterThan(0);
    expect(words).toBeLessThan(400);
    // The visitor's stream ends with the stopped answer.
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) body += decoder.decode(chunk.value);
    const events = parseSse(body);
    expect(events.at(-1)).toEqual({ event: 'done', data: { message: { role: 'assistant', content: message.content, status: 'stopped' } } });
    expect((await widgetLedger(who)).map((e) => e.words)).toEqual([-words]);
    expect(await wordsOf(who)).toEqual({ available: 10_000 - words, held: 0 });
    // Idempotent; a resumed session shows it as stopped.
    expect((await stop(session.visitor_token)).json().message).toEqual(message);
    expect((await started(widget.public_key, { session_token: session.session_token })).messages.at(-1)).toEqual(message);
    expect(await widgetLedger(who)).toHaveLength(1);
  });

  it('with chatwidget_enabled off the owner API is 404 feature_disabled and every widget is unavailable (403)', async () => {
    const widget = await makeWidget(owner);
    const session = await started(widget.public_key);
    await t.ctx.db.insert(appConfig).values({ key: 'chatwidget_enabled', value: 'false' });
    featureSwitchesChanged(t.ctx);
    try {
      const list = await owned(owner, 'GET', '/api/widgets');
      expect(list.statusCode).toBe(404);
      expect(list.json().error).toBe('feature_disabled');
      expect((await start(widget.public_key)).json()).toEqual({ code: 'widget_unavailable', message: 'This chat is not available right now.' });
      expect((await send(widget.public_key, session.visitor_token, 'Hello')).statusCode).toBe(403);
    } finally {
      await t.ctx.db.delete(appConfig).where(eq(appConfig.key, 'chatwidget_enabled'));
      featureSwitchesChanged(t.ctx);
    }
    expect((await owned(owner, 'GET', '/api/widgets')).statusCode).toBe(200);
  });

  it('the real-time socket refuses a visitor token (the widget uses no socket)', async () => {
    const widget = await makeWidget(owner);
    const session = await started(widget.public_key);
    const refusal = (await connectSocket(url, { token: session.visitor_token }).then(
      (socket) => {
        socket.close();
        return null;
      },
      (err: ConnectRefusal) => err,
    )) as ConnectRefusal | null;
    expect(refusal).not.toBeNull();
    expect(refusal?.data?.error).toBe('unauthenticated');
  });
});
