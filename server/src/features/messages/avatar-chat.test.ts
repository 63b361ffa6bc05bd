// Chatting with an avatar (issue 13 items 3 and 6; spec part 2 §2, §7 POST /messages avatar_id, §9 Claude file
// limits) through the real app, the knowledge job and the providers' emulators: the answer is given the
// avatar's context and the passages of its OWN files and cites them; another user's private avatar is a 404;
// a public avatar's knowledge is usable but its files are not downloadable; a deleted file is never cited
// again; Claude gets PDFs and images as document/image blocks, and over 100 PDF pages the spec's note.
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { conversations, messageCitations } from '../../db/schema';
import { saveAiKey } from '../../test/ai-app';
import { endOf, useChatApp } from '../../test/chat-app';
import { buildUser, type BuiltUser } from '../../test/factories';
import { testDbKind } from '../../test/test-db';
import { multipartBody } from '../files/test-fixtures';
import { fileIndexStatuses } from '../knowledge';
import { pdfWithPages, pngBytes } from '../knowledge/test-fixtures';

const LIGHTHOUSE = 'The Corran lighthouse keeper logs the foghorn every night at eleven, and polishes the brass lens on Sundays.';
const ORCHARD = 'Our orchard grows quinces beside the old mill; quince jelly is boiled in copper pans each October.';
const CLAUDE = 'claude-sonnet-4-6';

describe(`avatar chat (${testDbKind()})`, () => {
  const chat = useChatApp((ai) => ({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: ai.openai.url, ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: ai.anthropic.url }));
  let ana: BuiltUser;
  let ben: BuiltUser;
  let admin: BuiltUser;

  const call = (who: BuiltUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    chat.t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });

  async function settled(fileId: number) {
    for (let i = 0; i < 400; i++) {
      const [row] = await fileIndexStatuses({ ctx: chat.t.ctx, fileIds: [fileId] });
      if (row && (row.status === 'ready' || row.status === 'failed')) return row;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`file ${fileId} was not indexed in time`);
  }

  async function avatarWith(who: BuiltUser, name: string, context: string, uploads: { name: string; bytes: Buffer }[]) {
    const created = await call(who, 'POST', '/api/avatars', { name, context });
    expect(created.statusCode).toBe(201);
    const avatarId = created.json().avatar_id as number;
    const fileIds: number[] = [];
    for (const file of uploads) {
      const { payload, headers } = multipartBody(file);
      const res = await chat.t.app.inject({ method: 'POST', url: `/api/avatars/add-file/${avatarId}`, payload, headers: { ...headers, ...who.auth } });
      expect(res.statusCode).toBe(201);
      const fileId = res.json().file_id as number;
      // Knowledge files are indexed in the background; images are not (Claude gets them as they are).
      if (!file.name.endsWith('.png')) expect((await settled(fileId)).status).toBe('ready');
      fileIds.push(fileId);
    }
    return { avatarId, fileIds };
  }

  /** Sends a prompt and waits for the answer's end; returns the end event's message and the request sent. */
  async function answer(who: BuiltUser, conversationId: number, content: string, extra: Record<string, unknown> = {}) {
    const socket = await chat.connect(who);
    const res = await chat.send(who, { content, conversation_id: conversationId, stream: true, ...extra });
    expect(res.statusCode).toBe(201);
    const end = await endOf(socket, res.json().assistant_message.message_id as number);
    expect(end.message?.status).toBe('done');
    return end.message!;
  }

  beforeAll(async () => {
    ana = await chat.userWithWords(50_000);
    ben = await chat.userWithWords(50_000);
    admin = await chat.userWithWords(50_000, { staffRole: 'admin' });
    for (const who of [ana, ben, admin]) await saveAiKey(chat.t, who);
  });

  it("answers with the avatar's context and its file's passage, cites it, and keeps the avatar on the conversation", async () => {
    const { avatarId, fileIds } = await avatarWith(ana, 'Keeper', 'You are a lighthouse keeper who answers briefly.', [{ name: 'keeper-notes.txt', bytes: Buffer.from(LIGHTHOUSE) }]);
    const conversationId = await chat.newConversation(ana);
    const message = await answer(ana, conversationId, 'When does the keeper log the foghorn?', { avatar_id: avatarId });

    const sent = chat.ai.openai.stats.lastRequest as { messages: { role: string; content: string }[] };
    expect(sent.messages[0].role).toBe('system');
    expect(sent.messages[0].content).toContain('You are a lighthouse keeper');
    expect(sent.messages[0].content).toContain('foghorn every night at eleven');
    expect(message.avatar_id).toBe(avatarId);
    expect(message.citations).toEqual([{ file_id: fileIds[0], name: 'keeper-notes.txt', page: null, heading: null, text: expect.stringContaining('foghorn') }]);

    // The history and an edit (favorite) present the citations too; the conversation keeps the avatar.
    const listed = (await call(ana, 'GET', `/api/messages/conversation/${conversationId}`)).json().messages;
    expect(listed.find((m: { message_id: number }) => m.message_id === message.message_id).citations).toHaveLength(1);
    expect(listed.find((m: { role: string }) => m.role === 'user').citations).toEqual([]);
    const favorite = await call(ana, 'PUT', '/api/messages', { message_id: message.message_id, favorite: true });
    expect(favorite.json().citations).toHaveLength(1);
    const [row] = await chat.t.ctx.db.select().from(conversations).where(eq(conversations.conversationId, conversationId));
    expect(row.avatarId).toBe(avatarId);

    // The next message needs no avatar_id: the conversation's avatar answers; null stops it.
    const next = await answer(ana, conversationId, 'And the brass lens?');
    expect(next.avatar_id).toBe(avatarId);
    expect(next.citations[0]?.file_id).toBe(fileIds[0]);
    const plain = await answer(ana, conversationId, 'Just say hi.', { avatar_id: null });
    expect(plain.avatar_id).toBeNull();
    expect(plain.citations).toEqual([]);
    expect((chat.ai.openai.stats.lastRequest as { messages: { role: string }[] }).messages[0].role).not.toBe('system');
  });

  it("refuses another user's private avatar with 404 and saves nothing; a missing avatar id is a 404 too", async () => {
    const { avatarId } = await avatarWith(ana, 'Private', 'Secret persona.', []);
    const conversationId = await chat.newConversation(ben);
    for (const id of [avatarId, 99_999_999]) {
      const res = await chat.send(ben, { content: 'Hello', conversation_id: conversationId, avatar_id: id });
      expect(res.statusCode).toBe(404);
    }
    expect((await call(ben, 'GET', `/api/messages/conversation/${conversationId}`)).json().messages).toEqual([]);
    const [row] = await chat.t.ctx.db.select().from(conversations).where(eq(conversations.conversationId, conversationId));
    expect(row.avatarId).toBeNull();
  });

  it("a public avatar's knowledge answers others, whose uploads never mix in, and its files stay undownloadable", async () => {
    const { avatarId, fileIds } = await avatarWith(ana, 'Orchard', 'You tend an orchard.', [{ name: 'orchard.txt', bytes: Buffer.from(ORCHARD) }]);
    expect((await call(admin, 'PUT', '/api/avatars', { avatar_id: avatarId, public: true })).statusCode).toBe(200);
    // Ben's own avatar file about quinces is not the public avatar's: it is never given or cited.
    const own = await avatarWith(ben, 'Mine', 'Mine.', [{ name: 'ben-quince.txt', bytes: Buffer.from('Quince trees of Ben are pruned in February with quince shears.') }]);
    const conversationId = await chat.newConversation(ben);
    const message = await answer(ben, conversationId, 'When is quince jelly boiled?', { avatar_id: avatarId });
    expect(message.citations.map((c) => c.file_id)).toEqual([fileIds[0]]);
    const sent = chat.ai.openai.stats.lastRequest as { messages: { content: string }[] };
    expect(sent.messages[0].content).toContain('copper pans');
    expect(sent.messages[0].content).not.toContain('February');
    expect(own.fileIds[0]).not.toBe(fileIds[0]);
    expect((await call(ben, 'GET', `/api/avatars/${avatarId}/files/${fileIds[0]}`)).statusCode).toBe(404);
  });

  it('a deleted file is never cited again: its citations go with it and new answers do not get its text', async () => {
    const { avatarId, fileIds } = await avatarWith(ana, 'Forgetful', 'You answer from notes.', [{ name: 'gone.txt', bytes: Buffer.from(LIGHTHOUSE) }]);
    const conversationId = await chat.newConversation(ana);
    const first = await answer(ana, conversationId, 'What about the foghorn?', { avatar_id: avatarId });
    expect(first.citations).toHaveLength(1);

    expect((await call(ana, 'DELETE', `/api/avatars/${avatarId}/files/${fileIds[0]}`)).statusCode).toBe(200);
    const rows = await chat.t.ctx.db.select().from(messageCitations).where(and(eq(messageCitations.messageId, first.message_id)));
    expect(rows).toEqual([]);
    const listed = (await call(ana, 'GET', `/api/messages/conversation/${conversationId}`)).json().messages;
    expect(listed.find((m: { message_id: number }) => m.message_id === first.message_id).citations).toEqual([]);

    const again = await answer(ana, conversationId, 'What about the foghorn now?');
    expect(again.citations).toEqual([]);
    expect((chat.ai.openai.stats.lastRequest as { messages: { content: string }[] }).messages[0].content).not.toContain('foghorn every night');
  });

  it('Claude: PDFs and images go as document and image blocks; over 100 PDF pages the message is refused with the spec note', async () => {
    const small = await pdfWithPages(['Tide tables for the harbour: high water at six.', 'Second page about buoys.']);
    const { avatarId } = await avatarWith(ana, 'Harbour', 'You are a harbour master.', [
      { name: 'tides.pdf', bytes: small },
      { name: 'chart.png', bytes: pngBytes() },
    ]);
    const conversationId = await chat.newConversation(ana, { model: CLAUDE });
    const message = await answer(ana, conversationId, 'When is high water?', { avatar_id: avatarId });
    expect(message.citations.map((c) => c.name)).toContain('tides.pdf');
    const sent = chat.ai.anthropic.stats.lastRequest as { system?: string; messages: { role: string; content: unknown }[] };
    expect(sent.system).toContain('harbour master');
    const blocks = sent.messages.at(-1)!.content as { type: string; source?: { media_type: string } }[];
    expect(blocks.map((b) => b.type)).toEqual(['document', 'image', 'text']);
    expect(blocks.map((b) => b.source?.media_type)).toEqual(['application/pdf', 'image/png', undefined]);

    // 101 pages in total: refused before anything is saved, in the user's language.
    const big = await avatarWith(ben, 'Archive', 'You keep archives.', [{ name: 'archive.pdf', bytes: await pdfWithPages(Array.from({ length: 101 }, (_, i) => `Archive page ${i + 1}.`)) }]);
    const claudeChat = await chat.newConversation(ben, { model: CLAUDE });
    const refused = await chat.send(ben, { content: 'Summarize the archive.', conversation_id: claudeChat, avatar_id: big.avatarId });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('validation_error');
    expect(refused.json().message).toContain('101');
    expect(refused.json().message).toContain('100');
    expect((await call(ben, 'GET', `/api/messages/conversation/${claudeChat}`)).json().messages).toEqual([]);
    // In the user's language.
    const lucia = await buildUser(chat.t.ctx, { access: true, lang: 'es' });
    await saveAiKey(chat.t, lucia);
    const spanish = await avatarWith(lucia, 'Archivo', 'Guardas archivos.', [{ name: 'archivo.pdf', bytes: await pdfWithPages(Array.from({ length: 101 }, (_, i) => `Página ${i + 1}.`)) }]);
    const refusedEs = await chat.send(lucia, { content: 'Resume.', conversation_id: await chat.newConversation(lucia, { model: CLAUDE }), avatar_id: spanish.avatarId });
    expect(refusedEs.statusCode).toBe(400);
    expect(refusedEs.json().message).toContain('como máximo 100 páginas');
    // The same avatar with GPT uses its passages instead.
    const gptChat = await chat.newConversation(ben);
    const gpt = await answer(ben, gptChat, 'What is on archive page 7?', { avatar_id: big.avatarId });
    expect(gpt.citations.length).toBeGreaterThan(0);
  }, 60_000);

  it('a regenerated avatar answer is written as the avatar again and cites anew', async () => {
    const { avatarId, fileIds } = await avatarWith(ana, 'Again', 'You answer twice.', [{ name: 'again.txt', bytes: Buffer.from(ORCHARD) }]);
    const conversationId = await chat.newConversation(ana);
    const first = await answer(ana, conversationId, 'Tell me about the quince jelly.', { avatar_id: avatarId });
    const socket = await chat.connect(ana);
    const res = await chat.send(ana, { conversation_id: conversationId, message_id: first.message_id, regenerate: true });
    expect(res.statusCode).toBe(201);
    const again = (await endOf(socket, res.json().assistant_message.message_id as number)).message!;
    expect(again.message_id).not.toBe(first.message_id);
    expect(again.avatar_id).toBe(avatarId);
    expect(again.citations.map((c) => c.file_id)).toEqual([fileIds[0]]);
    expect((chat.ai.openai.stats.lastRequest as { messages: { content: string }[] }).messages[0].content).toContain('copper pans');
  });

  it('a chat prompt with PDFs for Claude: those within 100 PDF pages in all go as document blocks, the rest as their text (spec part 2 §9)', async () => {
    const conversationId = await chat.newConversation(ana, { model: CLAUDE });
    const attach = async (name: string, bytes: Buffer) => {
      const { payload, headers } = multipartBody({ name, bytes });
      const res = await chat.t.app.inject({ method: 'POST', url: `/api/conversations/file/${conversationId}`, payload, headers: { ...headers, ...ana.auth } });
      expect(res.statusCode, res.body).toBe(200);
      const fileId = res.json().file.file_id as number;
      expect((await settled(fileId)).status).toBe('ready');
      return fileId;
    };
    const brief = await pdfWithPages(['The ferry leaves at nine.', 'It comes back at five.']);
    const briefId = await attach('brief.pdf', brief);
    // 2 + 99 pages: the second PDF would pass the 100 pages, so it goes as text.
    const manualId = await attach('manual.pdf', await pdfWithPages(Array.from({ length: 99 }, (_, i) => `Manual page ${i + 1}: the lamp turns once a minute.`)));

    const end = await answer(ana, conversationId, '[echo] When does the ferry leave?', { file_ids: [briefId, manualId] });
    const sent = chat.ai.anthropic.stats.lastRequest as { system?: string; messages: { role: string; content: unknown }[] };
    const blocks = sent.messages.at(-1)?.content as { type: string; title?: string; source?: { media_type: string } }[];
    expect(blocks.filter((b) => b.type === 'document').map((b) => [b.title, b.source?.media_type])).toEqual([['brief.pdf', 'application/pdf']]);
    expect(sent.system).toContain('=== manual.pdf');
    expect(sent.system).toContain('the lamp turns once a minute');
    expect(sent.system).toContain('The PDF "manual.pdf" goes past what this model reads as a document (100 PDF pages in all)');
    expect(sent.system).not.toContain('The ferry leaves at nine.');
    expect(end.content).toContain(`[document application/pdf "brief.pdf" ${brief.length} bytes]`);
  });

  it('a user without an avatar sends as before: no system turn, no citations', async () => {
    const who = await buildUser(chat.t.ctx, { access: true });
    const conversationId = await chat.newConversation(who);
    const message = await answer(who, conversationId, 'Plain question.');
    expect(message.avatar_id).toBeNull();
    expect(message.citations).toEqual([]);
  });
});
