// The set-up the chat tests share: the AI wire-protocol emulators, the real app configured to use them and
// listening locally (for sockets), and helpers to open sockets, start conversations and send prompts.
// Registers its own beforeAll/afterEach/afterAll: call it at the top of a describe block.
import { startAiEmulators, type RunningAiEmulators } from '@pluma/emulators/index';
import { SocketEvents, type MessageStreamEndPayload } from '@pluma/common/events';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { messages, users } from '../db/schema';
import { settleGenerations } from '../platform/ai/generation-registry';
import { connectSocket, listenLocally, type ClientSocket } from '../platform/realtime/socket-test-helpers';
import { buildUser, type BuiltUser } from './factories';
import { createTestApp, type TestApp } from './test-app';

export interface ChatApp {
  ai: RunningAiEmulators;
  t: TestApp;
  url: string;
  /** A socket of `who`'s, closed after the test. */
  connect(who: BuiltUser): Promise<ClientSocket>;
  /** A new Personal conversation of `who`'s; returns its id. */
  newConversation(who: BuiltUser, body?: Record<string, unknown>): Promise<number>;
  /** POST /api/messages as `who`. */
  send(who: BuiltUser, payload: Record<string, unknown>): ReturnType<TestApp['app']['inject']>;
  messageRow(id: number): Promise<typeof messages.$inferSelect>;
  /** A user with access and `words` available (buildUser's grant sets 10000). */
  userWithWords(words: number, extra?: { staffRole?: 'admin' }): Promise<BuiltUser>;
}

/** `env` gets the running emulators and returns the app's environment (OpenAI's emulator by default). */
export function useChatApp(env: (ai: RunningAiEmulators) => Record<string, string> = (ai) => ({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: ai.openai.url })): ChatApp {
  const sockets: ClientSocket[] = [];
  const chat = {
    async connect(who) {
      const socket = await connectSocket(chat.url, { token: who.token });
      recordEnds(socket);
      sockets.push(socket);
      return socket;
    },
    async newConversation(who, body = {}) {
      const res = await chat.t.app.inject({ method: 'POST', url: '/api/conversations', headers: who.auth, payload: { name: 'Chat', ...body } });
      expect(res.statusCode).toBe(201);
      return res.json().conversation_id as number;
    },
    send(who, payload) {
      // An answer written again keeps its id: an end of it kept from before is not this request's.
      if (typeof payload.message_id === 'number') for (const socket of sockets) forgetEnds(socket, payload.message_id);
      return chat.t.app.inject({ method: 'POST', url: '/api/messages', headers: who.auth, payload });
    },
    messageRow: async (id) => (await chat.t.ctx.db.select().from(messages).where(eq(messages.messageId, id)))[0],
    async userWithWords(words, extra = {}) {
      const who = await buildUser(chat.t.ctx, { access: true, ...extra });
      await chat.t.ctx.db.update(users).set({ availableWords: words }).where(eq(users.userId, who.user.userId));
      return who;
    },
  } as ChatApp;

  beforeAll(async () => {
    chat.ai = await startAiEmulators();
    chat.t = await createTestApp(env(chat.ai));
    chat.url = await listenLocally(chat.t.app);
  }, 120_000);
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    chat.ai.openai.setTokenDelay(0);
    await settleGenerations(chat.t.ctx);
  });
  afterAll(async () => {
    await chat.t?.close();
    await chat.ai?.close();
  });
  return chat;
}

interface EndRecord {
  /** Ends no endOf has taken yet, oldest first. */
  unclaimed: MessageStreamEndPayload[];
  waiters: { messageId: number; resolve: (payload: MessageStreamEndPayload) => void }[];
}
const records = new WeakMap<ClientSocket, EndRecord>();

/**
 * Keeps every end event of a socket from the moment it connects. An answer can end before the test has
 * read the POST's response (on PostgreSQL the request's "last used" write can wait on the answer's charge,
 * which locks the same user row), so an end that arrives before endOf asks for it is kept for it.
 */
function recordEnds(socket: ClientSocket): void {
  const record: EndRecord = { unclaimed: [], waiters: [] };
  records.set(socket, record);
  socket.on(SocketEvents.messageStreamEnd, (payload: MessageStreamEndPayload) => {
    const waiter = record.waiters.findIndex((w) => w.messageId === payload.message_id);
    if (waiter === -1) record.unclaimed.push(payload);
    else record.waiters.splice(waiter, 1)[0].resolve(payload);
  });
}

function forgetEnds(socket: ClientSocket, messageId: number): void {
  const record = records.get(socket);
  if (record) record.unclaimed = record.unclaimed.filter((p) => p.message_id !== messageId);
}

/**
 * The end event of one message (events of other messages are skipped). On a socket of `connect`'s, each end
 * is given once, in order: the oldest one not yet taken, else the next to arrive (`send` forgets the kept ends of
 * a message it writes again).
 */
export function endOf(socket: ClientSocket, messageId: number, timeoutMs = 15_000): Promise<MessageStreamEndPayload> {
  const record = records.get(socket);
  if (record) {
    const kept = record.unclaimed.findIndex((p) => p.message_id === messageId);
    if (kept !== -1) return Promise.resolve(record.unclaimed.splice(kept, 1)[0]);
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      if (record) record.waiters = record.waiters.filter((w) => w !== waiter);
      else socket.off(SocketEvents.messageStreamEnd, onEnd);
      reject(new Error(`no end of message ${messageId}`));
    }, timeoutMs);
    const done = (payload: MessageStreamEndPayload) => {
      clearTimeout(timer);
      resolve(payload);
    };
    const waiter = { messageId, resolve: done };
    const onEnd = (payload: MessageStreamEndPayload) => {
      if (payload.message_id !== messageId) return;
      socket.off(SocketEvents.messageStreamEnd, onEnd);
      done(payload);
    };
    if (record) record.waiters.push(waiter);
    else socket.on(SocketEvents.messageStreamEnd, onEnd);
  });
}
