// Web search in chat (issue 32) through the real app: POST /messages with searchOnInternet searches the
// search-engine emulator (SearXNG's, Brave's and Tavily's JSON), reads the local test sites through the
// outbound guard (127.0.0.1 is allowed here by OUTBOUND_ALLOW_HOSTS, as an operator allows a private SearXNG;
// the hostile pages' metadata redirect, size and slowness are refused or cut all the same), and answers with
// the pages numbered; the steps arrive as `web_search` events and the sources stay on the answer.
import { SocketEvents, type WebSearchPayload } from '@pluma/common/events';
import type { DocumentOutputPayload } from '@pluma/common/documents-generate';
import { countWords } from '@pluma/common/rules/token-estimate';
import type { Message } from '@pluma/common/messages-api';
import { startSearchEngineEmulator, startTestSites, type RunningSearchEngine, type RunningTestSites } from '@pluma/emulators/search-engine';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appConfig, creditLedger, webSearches } from '../../db/schema';
import { encryptSecret } from '../../platform/crypto/secret-box';
import { recordEvents } from '../../platform/realtime/socket-test-helpers';
import { endOf, useChatApp } from '../../test/chat-app';
import { buildOrganization, buildUser, type BuiltUser } from '../../test/factories';
import { zipEntry } from '../../test/zip-entry';
import { saveAiKey } from '../../test/ai-app';

const BRAVE_KEY = 'brave-test-key-1234';
const FERN = ['Ferns grow best in shade with moist, rich soil.', 'Water ferns when the top inch of soil feels dry; most species dislike full sun and dry wind. '.repeat(8)];
const MOSS = ['Moss gardens need acidic soil and steady humidity.', 'Press moss firmly onto bare soil and mist it daily for the first weeks until it takes hold. '.repeat(8)];

describe('web search in chat (searchOnInternet)', () => {
  const chat = useChatApp((ai) => ({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: ai.openai.url, OUTBOUND_ALLOW_HOSTS: '127.0.0.1', WEB_SEARCH_PAGE_TIMEOUT_MS: '1500' }));
  let engine: RunningSearchEngine;
  let sites: RunningTestSites;

  const configure = async (entries: Record<string, string>, secret?: string) => {
    const rows = Object.entries(entries).map(([key, value]) => ({ key, value, encrypted: false }));
    if (secret !== undefined) rows.push({ key: 'web_search_api_key', value: encryptSecret(chat.t.ctx.env.APP_SECRET, secret), encrypted: true });
    await chat.t.ctx.db
      .insert(appConfig)
      .values(rows)
      .onConflictDoUpdate({ target: appConfig.key, set: { value: sql`excluded.value`, encrypted: sql`excluded.encrypted` } });
  };

  beforeAll(async () => {
    engine = await startSearchEngineEmulator({ apiKey: BRAVE_KEY });
    sites = await startTestSites({ ferns: { title: 'Growing ferns', paragraphs: FERN }, moss: { title: 'Moss gardens', paragraphs: MOSS } }, { slowMs: 20_000 });
    const page = (path: string, title: string) => ({ url: `${sites.origin}${path}`, title, content: `About ${title}` });
    engine.setResults([
      page('/ferns', 'Growing ferns'),
      // The same page again (fragment, tracking parameter): read once.
      page('/ferns#care', 'Ferns again'),
      page('/huge', 'A huge page'),
      page('/redirect-metadata', 'A redirect to the metadata address'),
      page('/private/moss', 'Disallowed by robots.txt'),
      page('/slow', 'A slow page'),
      page('/moss?utm_source=x', 'Moss gardens'),
    ]);
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
    await sites?.close();
  });

  async function ask(payload: Record<string, unknown> = {}, asker?: BuiltUser) {
    const owner = asker ?? (await buildUser(chat.t.ctx, { access: true }));
    const conversationId = await chat.newConversation(owner);
    const socket = await chat.connect(owner);
    const events = recordEvents(socket);
    const res = await chat.send(owner, { content: 'How do I care for ferns and moss?', conversation_id: conversationId, searchOnInternet: true, ...payload });
    expect(res.statusCode).toBe(201);
    const answerId = res.json().assistant_message.message_id as number;
    const end = await endOf(socket, answerId, 30_000);
    const steps = events.filter((e) => e.event === SocketEvents.webSearch).map((e) => e.payload as WebSearchPayload);
    return { owner, conversationId, answerId, end, steps };
  }

  const sentToModel = () => JSON.stringify(chat.ai.openai.stats.lastRequest?.messages ?? []);

  it('SearXNG: searches, reads the two good pages through the guard, streams the steps, and keeps the numbered sources', async () => {
    await configure({ web_search_provider: 'searxng', web_search_url: engine.url });
    const queriesBefore = engine.queries.length;
    const { owner, conversationId, answerId, end, steps } = await ask();

    expect(engine.queries.slice(queriesBefore)).toEqual(['How do I care for ferns and moss?']);
    expect(steps.map((s) => s.step)).toEqual(['searching', 'reading', 'done']);
    expect(steps[1].count).toBe(6);
    const expected = [
      { n: 1, title: 'Growing ferns', url: `${sites.origin}/ferns`, site: '127.0.0.1' },
      { n: 2, title: 'Moss gardens', url: `${sites.origin}/moss?utm_source=x`, site: '127.0.0.1' },
    ];
    expect(steps[2].sources).toMatchObject(expected);
    expect(end.message.sources).toMatchObject(expected);
    expect(end.message.web_search_failed).toBeUndefined();
    // robots.txt was read and its Disallow kept /private/ unread; the metadata address never answered a thing.
    expect(sites.hits).toContain('/robots.txt');
    expect(sites.hits).not.toContain('/private/moss');

    // The model got the pages' readable text, numbered, without the sites' navigation and footer.
    const sent = sentToModel();
    expect(sent).toContain('[1] Growing ferns');
    expect(sent).toContain('Ferns grow best in shade');
    expect(sent).toContain('[2] Moss gardens');
    expect(sent).not.toContain('Cookie settings');
    expect(sent).not.toContain('Too late');

    // Reload: the sources come with the message.
    const page = await chat.t.app.inject({ method: 'GET', url: `/api/messages/conversation/${conversationId}`, headers: owner.auth });
    const answer = (page.json().messages as Message[]).find((m) => m.message_id === answerId);
    expect(answer?.sources).toMatchObject(expected);
    // The answer is charged in words like any other.
    expect((await chat.messageRow(answerId)).wordsCharged).toBeGreaterThan(0);

    // Exported to Word, the sources follow the text under the heading the web sends, each title with its URL.
    const exportSources = expected.map(({ n, title, url }) => ({ n, title, url }));
    const word = await chat.t.app.inject({ method: 'POST', url: '/api/messages/word', headers: owner.auth, payload: { text: 'Ferns like shade [1].', sources: exportSources, sources_heading: 'Fuentes' } });
    expect(word.statusCode).toBe(200);
    const xml = zipEntry(word.rawPayload, 'word/document.xml') ?? '';
    expect(xml.indexOf('Fuentes')).toBeGreaterThan(xml.indexOf('Ferns like shade'));
    for (const source of expected) expect(xml).toContain(source.title);
    expect(xml).toContain(`${sites.origin}/ferns`);
    const pdf = await chat.t.app.inject({ method: 'POST', url: '/api/messages/pdf', headers: owner.auth, payload: { text: 'Ferns [1].', sources: exportSources } });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.length).toBeGreaterThan(0);
    // The search is logged for the staff AI-usage analytics: provider, pages read, not failed, who.
    const [logged] = await chat.t.ctx.db.select().from(webSearches).where(eq(webSearches.messageId, answerId));
    expect(logged).toMatchObject({ userId: owner.user.userId, organizationId: null, provider: 'searxng', keyScope: 'app', failed: false });
    // Six results read: ferns (twice), moss read; huge, metadata redirect, robots-refused and slow unread.
    expect(logged.pagesRead).toBeGreaterThanOrEqual(2);
    const staffAdmin = await buildUser(chat.t.ctx, { staffRole: 'admin' });
    const usage = await chat.t.app.inject({ url: '/api/analytics/ai_usage', headers: staffAdmin.auth });
    expect(usage.statusCode).toBe(200);
    expect(usage.json().searches.providers).toEqual(expect.arrayContaining([expect.objectContaining({ provider: 'searxng' })]));
    expect(usage.json().searches.searches).toBeGreaterThanOrEqual(1);
    expect((await chat.t.app.inject({ url: '/api/analytics/ai_usage', headers: owner.auth })).statusCode).toBe(403);

    // Only web addresses are printed as sources.
    const script = await chat.t.app.inject({ method: 'POST', url: '/api/messages/pdf', headers: owner.auth, payload: { text: 'x', sources: [{ n: 1, title: 'x', url: 'javascript:alert(1)' }] } });
    expect(script.statusCode).toBe(400);
  }, 40_000);

  it('Brave: the key is sent as the subscription token; Tavily: in the body', async () => {
    await configure({ web_search_provider: 'brave', web_search_url: engine.url }, BRAVE_KEY);
    const brave = await ask();
    expect(brave.end.message.sources?.map((s) => s.title)).toEqual(['Growing ferns', 'Moss gardens']);

    await configure({ web_search_provider: 'tavily', web_search_url: engine.url }, 'wrong-key');
    const refused = await ask();
    expect(refused.steps.map((s) => s.step)).toEqual(['searching', 'failed']);
    expect(refused.end.message).toMatchObject({ web_search_failed: true, sources: [], status: 'done' });
  }, 60_000);

  it('a failing provider gives the plain answer, said plainly; without searchOnInternet nothing is searched', async () => {
    await configure({ web_search_provider: 'searxng', web_search_url: engine.url });
    engine.failNext(503);
    const failed = await ask();
    expect(failed.steps.map((s) => s.step)).toEqual(['searching', 'failed']);
    expect(failed.end.message).toMatchObject({ status: 'done', finish_reason: 'stop', web_search_failed: true, sources: [] });
    expect(failed.end.content.length).toBeGreaterThan(0);
    expect(sentToModel()).not.toContain('Web search results');

    const queries = engine.queries.length;
    const plain = await ask({ searchOnInternet: false });
    expect(plain.steps).toEqual([]);
    expect(plain.end.message.sources).toBeUndefined();
    expect(engine.queries.length).toBe(queries);
  }, 40_000);

  it('a Stop while the pages are read ends the answer: stopped, nothing written or charged, no model call', async () => {
    await configure({ web_search_provider: 'searxng', web_search_url: engine.url });
    const owner = await buildUser(chat.t.ctx, { access: true });
    const conversationId = await chat.newConversation(owner);
    const socket = await chat.connect(owner);
    const events = recordEvents(socket);
    const generationsBefore = chat.ai.openai.stats.generations;
    const res = await chat.send(owner, { content: 'How do I care for ferns and moss?', conversation_id: conversationId, searchOnInternet: true });
    const answerId = res.json().assistant_message.message_id as number;
    const end = endOf(socket, answerId, 30_000);
    // The slow page keeps the reading going for WEB_SEARCH_PAGE_TIMEOUT_MS: the Stop lands inside it.
    await expect.poll(() => events.some((e) => e.event === SocketEvents.webSearch && (e.payload as WebSearchPayload).step === 'reading'), { timeout: 10_000 }).toBe(true);
    const stopped = await chat.t.app.inject({ method: 'POST', url: `/api/messages/${answerId}/stop`, headers: owner.auth });
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toMatchObject({ message_id: answerId, status: 'done', finish_reason: 'stopped', content: '', words_charged: 0 });
    expect((await end).message).toMatchObject({ finish_reason: 'stopped' });
    // The search ended there: no 'done'/'failed' step, no answer asked of the model, no words charged.
    expect(events.filter((e) => e.event === SocketEvents.webSearch).map((e) => (e.payload as WebSearchPayload).step)).toEqual(['searching', 'reading']);
    expect(chat.ai.openai.stats.generations).toBe(generationsBefore);
    expect((await chat.messageRow(answerId)).wordsCharged).toBe(0);
    // A stranger's Stop is a 404.
    const stranger = await buildUser(chat.t.ctx, { access: true });
    expect((await chat.t.app.inject({ method: 'POST', url: `/api/messages/${answerId}/stop`, headers: stranger.auth })).statusCode).toBe(404);
  }, 40_000);

  it("an organization's own provider and key search for its members there; never shown to a non-admin; a Member can't set it", async () => {
    await configure({ web_search_provider: 'searxng', web_search_url: engine.url });
    const ORG_KEY = 'org-brave-key-5678';
    const orgEngine = await startSearchEngineEmulator({ apiKey: ORG_KEY });
    try {
      orgEngine.setResults([{ url: `${sites.origin}/ferns`, title: 'Growing ferns', content: 'ferns' }]);
      const admin = await buildUser(chat.t.ctx, { access: true });
      const member = await buildUser(chat.t.ctx, { access: true });
      const org = await buildOrganization(chat.t.ctx, [
        { user: admin, role: 'admin' },
        { user: member, role: 'member' },
      ]);
      const inOrg = `?organization_id=${org.organizationId}`;
      const update = (who: typeof admin, body: Record<string, unknown>) =>
        chat.t.app.inject({ method: 'POST', url: `/api/organizations/update${inOrg}`, headers: who.auth, payload: { organization_id: org.organizationId, name: org.name, ...body } });
      // A Member can't set it; an unknown provider is refused.
      expect((await update(member, { web_search_provider: 'brave', web_search_api_key: 'mine' })).statusCode).toBe(403);
      expect((await update(admin, { web_search_provider: 'bing' })).statusCode).toBe(400);
      const saved = await update(admin, { web_search_provider: 'brave', web_search_url: orgEngine.url, web_search_api_key: ORG_KEY });
      expect(saved.statusCode).toBe(200);
      expect(saved.body).not.toContain(ORG_KEY);
      expect(saved.json()).toMatchObject({ web_search_provider: 'brave', web_search_url: orgEngine.url, web_search_api_key: '••••••••5678' });
      // A Member reads the organization without its search settings.
      const seen = await chat.t.app.inject({ url: `/api/organizations/${org.organizationId}${inOrg}`, headers: member.auth });
      expect(seen.statusCode).toBe(200);
      expect(seen.json().web_search_api_key).toBeUndefined();
      expect(seen.json().web_search_url).toBeUndefined();
      // …but knows it has a provider of its own (the composer offers the globe there).
      expect(seen.json().web_search).toBe(true);
      expect(seen.body).not.toContain(ORG_KEY);

      // The member's search in the organization goes to its provider with its key; the operator's engine hears nothing.
      const conversation = await chat.t.app.inject({ method: 'POST', url: `/api/conversations${inOrg}`, headers: member.auth, payload: { name: 'Chat', organization_id: org.organizationId } });
      const socket = await chat.connect(member);
      const before = engine.queries.length;
      const res = await chat.t.app.inject({ method: 'POST', url: `/api/messages${inOrg}`, headers: member.auth, payload: { content: 'Ferns?', conversation_id: conversation.json().conversation_id, searchOnInternet: true } });
      expect(res.statusCode).toBe(201);
      const answerId = res.json().assistant_message.message_id as number;
      const end = await endOf(socket, answerId, 30_000);
      expect(end.message.sources?.map((s) => s.title)).toEqual(['Growing ferns']);
      expect(orgEngine.queries).toEqual(['Ferns?']);
      expect(engine.queries.length).toBe(before);
      const [logged] = await chat.t.ctx.db.select().from(webSearches).where(eq(webSearches.messageId, answerId));
      expect(logged).toMatchObject({ userId: member.user.userId, organizationId: org.organizationId, provider: 'brave', keyScope: 'organization', failed: false, pagesRead: 1 });

      // In Personal scope the same member searches with the operator's provider.
      const personal = await ask();
      expect(personal.end.message.sources?.length).toBeGreaterThan(0);
      expect(engine.queries.length).toBe(before + 1);

      // The app's provider is one of the four choices; anything else is refused.
      const staffAdmin = await buildUser(chat.t.ctx, { staffRole: 'admin' });
      const bad = await chat.t.app.inject({ method: 'PUT', url: '/api/appconfig', headers: staffAdmin.auth, payload: [{ key: 'web_search_provider', value: 'bing' }] });
      expect(bad.statusCode).toBe(400);
      const none = await chat.t.app.inject({ method: 'PUT', url: '/api/appconfig', headers: staffAdmin.auth, payload: [{ key: 'web_search_provider', value: '' }] });
      expect(none.statusCode).toBeLessThan(300);
    } finally {
      await orgEngine.close();
    }
  }, 60_000);

  it("the documents' Prompt tool and an avatar's chat search the same way", async () => {
    await configure({ web_search_provider: 'searxng', web_search_url: engine.url });
    const owner = await buildUser(chat.t.ctx, { access: true, lang: 'es' });
    const socket = await chat.connect(owner);
    const frames: DocumentOutputPayload[] = [];
    socket.on(SocketEvents.documentOutput, (frame: DocumentOutputPayload) => frames.push(frame));
    const started = await chat.t.app.inject({ method: 'POST', url: '/api/documents/avatar-output', headers: owner.auth, payload: { kind: 'prompt', prompt: 'How do I care for ferns and moss?', searchOnInternet: true } });
    expect(started.statusCode).toBe(202);
    await expect.poll(() => frames.some((f) => f.done), { timeout: 30_000 }).toBe(true);
    const last = frames.at(-1)!;
    expect(last.status).toBe('done');
    expect(sentToModel()).toContain('[1] Growing ferns');
    // The text ends with the pages it was given, under the user's language's heading; streamed like the rest.
    expect(last.content).toMatch(/## Fuentes\n\n1\. \[Growing ferns\]\(http:\/\/127\.0\.0\.1:\d+\/ferns\)\n2\. \[Moss gardens\]/);
    expect(frames.map((f) => f.delta).join('')).toBe(last.content);
    // Charged for the words the model wrote, not the list.
    const written = last.content!.slice(0, last.content!.indexOf('\n\n## Fuentes'));
    const [charge] = await chat.t.ctx.db.select().from(creditLedger).where(and(eq(creditLedger.userId, owner.user.userId), eq(creditLedger.sourceType, 'document')));
    expect(-charge.words).toBe(countWords(written));
    const [logged] = await chat.t.ctx.db.select().from(webSearches).where(eq(webSearches.userId, owner.user.userId));
    expect(logged).toMatchObject({ provider: 'searxng', failed: false, messageId: null });

    // An avatar's chat: its persona and the pages both reach the model, and the sources stay on the answer.
    await saveAiKey(chat.t, owner);
    const avatar = await chat.t.app.inject({ method: 'POST', url: '/api/avatars', headers: owner.auth, payload: { name: 'Gardener', context: 'You are a patient gardener.' } });
    expect(avatar.statusCode).toBe(201);
    const withAvatar = await ask({ avatar_id: avatar.json().avatar_id }, owner);
    expect(withAvatar.end.message.sources?.map((s) => s.title)).toEqual(['Growing ferns', 'Moss gardens']);
    expect(withAvatar.end.message.avatar_id).toBe(avatar.json().avatar_id);
    const sent = sentToModel();
    expect(sent).toContain('You are a patient gardener.');
    expect(sent).toContain('Web search results');
  }, 60_000);

  it("another user's conversation is a 404, and nothing is searched", async () => {
    await configure({ web_search_provider: 'searxng', web_search_url: engine.url });
    const owner = await buildUser(chat.t.ctx, { access: true });
    const stranger = await buildUser(chat.t.ctx, { access: true });
    const conversationId = await chat.newConversation(owner);
    const queries = engine.queries.length;
    const res = await chat.send(stranger, { content: 'Ferns?', conversation_id: conversationId, searchOnInternet: true });
    expect(res.statusCode).toBe(404);
    expect(engine.queries.length).toBe(queries);
  });
});
