// An avatar answer's citations wherever the message is shown (issue 13 item 3: "each avatar reply cites its
// passages under the answer"): the conversation, GET /messages?filters (the browse and search list) and the
// public shared view, with the same presenter; a deleted file's passages leave all of them at once
// (message_citations cascades from files).
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../db/schema';
import { endOf, useChatApp } from '../../test/chat-app';
import type { BuiltUser } from '../../test/factories';
import { testDbKind } from '../../test/test-db';
import { multipartBody } from '../files/test-fixtures';
import { fileIndexStatuses } from '../knowledge';

const LIGHTHOUSE = 'The Corran lighthouse keeper logs the foghorn every night at eleven, and polishes the brass lens on Sundays.';
const ORCHARD = 'Our orchard grows quinces beside the old mill; quince jelly is boiled in copper pans each October.';

describe(`citations in the browse list and shared messages (${testDbKind()})`, () => {
  const chat = useChatApp();
  let ana: BuiltUser;

  const call = (who: BuiltUser | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    chat.t.app.inject({ method, url, headers: who?.auth ?? {}, ...(payload ? { payload } : {}) });

  async function avatarWithFile(name: string, fileName: string, text: string) {
    const avatarId = (await call(ana, 'POST', '/api/avatars', { name, context: `You are ${name}.` })).json().avatar_id as number;
    const { payload, headers } = multipartBody({ name: fileName, bytes: Buffer.from(text) });
    const uploaded = await chat.t.app.inject({ method: 'POST', url: `/api/avatars/add-file/${avatarId}`, payload, headers: { ...headers, ...ana.auth } });
    expect(uploaded.statusCode).toBe(201);
    const fileId = uploaded.json().file_id as number;
    for (let i = 0; i < 400; i++) {
      const [row] = await fileIndexStatuses({ ctx: chat.t.ctx, fileIds: [fileId] });
      if (row?.status === 'ready') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { avatarId, fileId };
  }

  async function answer(conversationId: number, content: string, extra: Record<string, unknown> = {}) {
    const socket = await chat.connect(ana);
    const res = await chat.send(ana, { content, conversation_id: conversationId, stream: true, ...extra });
    expect(res.statusCode).toBe(201);
    const end = await endOf(socket, res.json().assistant_message.message_id as number);
    expect(end.message?.status).toBe('done');
    return end.message!;
  }

  beforeAll(async () => {
    ana = await chat.userWithWords(50_000);
    expect((await call(ana, 'PUT', '/api/users/ai-key', { api_key: 'sk-proj-citations-0123456789' })).statusCode).toBe(200);
  });

  it('the browse list shows each avatar answer its citations, and a deleted file takes them away', async () => {
    const keeper = await avatarWithFile('Keeper', 'keeper-notes.txt', LIGHTHOUSE);
    const orchard = await avatarWithFile('Orchard', 'orchard.txt', ORCHARD);
    const conversationId = await chat.newConversation(ana);
    const first = await answer(conversationId, 'When is the foghorn logged?', { avatar_id: keeper.avatarId });
    const second = await answer(conversationId, 'When is quince jelly boiled?', { avatar_id: orchard.avatarId });
    const plain = await answer(await chat.newConversation(ana), 'A plain question.');
    expect(first.citations.map((c) => c.file_id)).toEqual([keeper.fileId]);
    expect(second.citations.map((c) => c.file_id)).toEqual([orchard.fileId]);

    const listed = async (query: string) => (await call(ana, 'GET', `/api/messages?${query}`)).json().messages as { message_id: number; role: string; citations: unknown[] }[];
    const browse = await listed('role=assistant');
    const byId = new Map(browse.map((m) => [m.message_id, m]));
    // The same presenter as the conversation's messages.
    expect(byId.get(first.message_id)?.citations).toEqual(first.citations);
    expect(byId.get(second.message_id)?.citations).toEqual(second.citations);
    expect(byId.get(plain.message_id)?.citations).toEqual([]);
    // The prompts have none.
    expect((await listed('role=user')).every((m) => m.citations.length === 0)).toBe(true);
    // Searching finds the answer with its citations too.
    const found = await listed(`conversation_id=${conversationId}&role=assistant`);
    expect(found.map((m) => m.citations.length)).toEqual([1, 1]);

    expect((await call(ana, 'DELETE', `/api/avatars/${keeper.avatarId}/files/${keeper.fileId}`)).statusCode).toBe(200);
    const after = new Map((await listed('role=assistant')).map((m) => [m.message_id, m]));
    expect(after.get(first.message_id)?.citations).toEqual([]);
    expect(after.get(second.message_id)?.citations).toEqual(second.citations);
  });

  it('an interrupted avatar answer being continued is answered with the citations it keeps', async () => {
    const keeper = await avatarWithFile('Watch', 'watch-notes.txt', LIGHTHOUSE);
    const conversationId = await chat.newConversation(ana);
    const first = await answer(conversationId, 'When is the foghorn logged?', { avatar_id: keeper.avatarId });
    expect(first.citations).toHaveLength(1);
    // Cut off by a restart, say: its text stays and Continue appends to it.
    await chat.t.ctx.db.update(messages).set({ status: 'interrupted', finishReason: 'interrupted' }).where(eq(messages.messageId, first.message_id));
    const socket = await chat.connect(ana);
    const continued = await chat.send(ana, { conversation_id: conversationId, message_id: first.message_id });
    expect(continued.statusCode).toBe(200);
    expect(continued.json().assistant_message.citations).toEqual(first.citations);
    const end = await endOf(socket, first.message_id);
    expect(end.message?.citations).toEqual(first.citations);
  });

  it('a shared avatar answer shows its citations to anyone with the link, until the file is deleted', async () => {
    const keeper = await avatarWithFile('Warden', 'warden-notes.txt', LIGHTHOUSE);
    const message = await answer(await chat.newConversation(ana), 'When does the keeper polish the lens?', { avatar_id: keeper.avatarId });
    expect(message.citations).toHaveLength(1);
    const share = await call(ana, 'POST', '/api/messages/share', { message_id: message.message_id });
    expect(share.statusCode).toBe(201);
    const token = share.json().token as string;

    const shared = await call(null, 'GET', `/api/shared/${token}`);
    expect(shared.statusCode).toBe(200);
    expect(shared.json().citations).toEqual(message.citations);
    expect(shared.json().citations[0]).toMatchObject({ name: 'warden-notes.txt', text: expect.stringContaining('brass lens') });

    expect((await call(ana, 'DELETE', `/api/avatars/${keeper.avatarId}/files/${keeper.fileId}`)).statusCode).toBe(200);
    expect((await call(null, 'GET', `/api/shared/${token}`)).json().citations).toEqual([]);
  });
});
