// The visitor's side of a widget (contract B "Public API"), framework-free but for the reply the answer
// streams on. A session is found again by its opaque session_token (only its SHA-256 is stored) for 7 days
// after its last use; the visitor token (visitor-token.ts) names the session for 30 minutes.
import { answerCapWords } from '@pluma/common/rules/answer-words';
import { WIDGET_SESSION_TTL_MS } from '@pluma/common/widgets';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { widgetMessages, widgetSessions } from '../../db/schema';
import { hashToken, randomToken } from '../../platform/auth/tokens';
import { AppError } from '../../platform/http/errors';
import { reserveWords } from '../credits';
import { DEAD_ANSWER_AFTER_MS, sessionMessages, startAnswer, type AnswerJob, type AnswerSink } from './answer';
import { widgetLimitReached, type PublicWidget, type WidgetOwner } from './public-gate';
import { signVisitorToken, verifyVisitorToken } from './visitor-token';

/** A visitor's session as POST /start opens or resumes it, with its messages (the route presents it). */
export interface VisitorSessionStart {
  visitorToken: string;
  sessionToken: string;
  session: { sessionId: number; expiresAt: Date };
  messages: { role: string; content: string; status: string }[];
}

/**
 * An answer still 'streaming' long after any live one would have ended (its process crashed: a live answer is
 * saved every 500 ms and stopped after GENERATION_TIMEOUT_MS) is shown as failed ('interrupted'). Its hold
 * expires with the others (credits releaseExpiredHolds).
 */
async function sweepDeadAnswers(ctx: AppContext, sessionId: number): Promise<void> {
  await ctx.db
    .update(widgetMessages)
    .set({ status: 'failed', errorCode: 'interrupted' })
    .where(
      and(
        eq(widgetMessages.sessionId, sessionId),
        eq(widgetMessages.status, 'streaming'),
        sql`${widgetMessages.updatedAt} < now() - make_interval(secs => ${Math.ceil(DEAD_ANSWER_AFTER_MS / 1000)})`,
      ),
    );
}

/**
 * A session belongs to the widget's key it was started under: once the owner rotates the key, the sessions of
 * the old one are over (not resumed, their visitor tokens refused) — a rotation cuts off whoever had the key.
 */
const ofThisKey = (admitted: PublicWidget) =>
  and(eq(widgetSessions.widgetId, admitted.widget.widgetId), eq(widgetSessions.keyVersion, admitted.widget.keyVersion));

/**
 * POST /start: resumes the session of `sessionToken` (this widget's under its current key, not expired; its
 * expiry moves 7 days on), else opens a new one; answers a fresh visitor token with the session's messages.
 * @contract-exception a website visitor: admitted by the widget's key and origin (public-gate.ts), not an actor.
 */
export async function startVisitorSession(options: { ctx: AppContext; admitted: PublicWidget; sessionToken: string | undefined; ipHash: string }): Promise<VisitorSessionStart> {
  const { ctx, admitted } = options;
  const widgetId = admitted.widget.widgetId;
  const expiresAt = new Date(Date.now() + WIDGET_SESSION_TTL_MS);
  let sessionToken = options.sessionToken;
  let session: { sessionId: number; expiresAt: Date } | undefined;
  if (sessionToken) {
    [session] = await ctx.db
      .update(widgetSessions)
      .set({ expiresAt })
      .where(and(eq(widgetSessions.tokenHash, hashToken(sessionToken)), ofThisKey(admitted), gt(widgetSessions.expiresAt, sql`now()`)))
      .returning({ sessionId: widgetSessions.sessionId, expiresAt: widgetSessions.expiresAt });
  }
  if (!session) {
    sessionToken = randomToken();
    [session] = await ctx.db
      .insert(widgetSessions)
      .values({ widgetId, keyVersion: admitted.widget.keyVersion, tokenHash: hashToken(sessionToken), origin: admitted.origin, ipHash: options.ipHash, expiresAt })
      .returning({ sessionId: widgetSessions.sessionId, expiresAt: widgetSessions.expiresAt });
  }
  await sweepDeadAnswers(ctx, session.sessionId);
  const visitor = signVisitorToken(ctx.env.APP_SECRET, { widgetId, keyVersion: admitted.widget.keyVersion, sessionId: session.sessionId });
  return { visitorToken: visitor.token, sessionToken: sessionToken as string, session, messages: await sessionMessages(ctx, session.sessionId) };
}

/**
 * The session a visitor token names: genuine and unexpired, minted for this widget under its current key, and
 * the session still this widget's under that key and not expired. Anything else is null (401
 * visitor_token_invalid).
 * @contract-exception a website visitor: admitted by the widget's key and origin (public-gate.ts), not an actor.
 */
export async function visitorSession(ctx: AppContext, admitted: PublicWidget, token: string): Promise<{ sessionId: number } | null> {
  const claims = verifyVisitorToken(ctx.env.APP_SECRET, token);
  if (!claims || claims.widgetId !== admitted.widget.widgetId || claims.keyVersion !== admitted.widget.keyVersion) return null;
  const [session] = await ctx.db
    .select({ sessionId: widgetSessions.sessionId })
    .from(widgetSessions)
    .where(and(eq(widgetSessions.sessionId, claims.sessionId), ofThisKey(admitted), gt(widgetSessions.expiresAt, sql`now()`)))
    .limit(1);
  return session ?? null;
}

/** Two ids of widget_messages in ascending order: the visitor's message, then the answer (the hold's source). */
async function drawMessageIds(ctx: AppContext): Promise<[number, number]> {
  const result = await ctx.db.execute(sql`select nextval(pg_get_serial_sequence('widget_messages', 'message_id'))::int as id from generate_series(1, 2) order by 1`);
  const rows = (result as unknown as { rows: { id: number }[] }).rows;
  return [Number(rows[0]?.id), Number(rows[1]?.id)];
}

/**
 * POST /messages: holds words from the OWNER for the answer (none left: 402 widget_limit_reached, nothing
 * saved), appends the visitor's message and the answer ('streaming'); returns how to run the answer, which
 * the route streams as server-sent events. The answer goes on if the visitor leaves (answer.ts).
 * @contract-exception a website visitor: admitted by the widget's key and origin (public-gate.ts), not an actor.
 */
export async function sendVisitorMessage(options: {
  ctx: AppContext;
  admitted: PublicWidget;
  owner: WidgetOwner;
  sessionId: number;
  content: string;
  lang: 'en' | 'es';
  log: { error(details: object, message: string): void };
}): Promise<{ run: (sink: AnswerSink) => Promise<void> }> {
  const { ctx, admitted, owner, sessionId, content } = options;
  const maxTokens = ctx.env.AI_MAX_ANSWER_TOKENS;
  const [questionId, answerId] = await drawMessageIds(ctx);
  let reservation;
  try {
    reservation = await reserveWords(ctx.db, { userId: owner.user.userId, exempt: owner.staffRole !== null, words: answerCapWords(maxTokens) }, { type: 'widget', id: String(answerId) });
  } catch (err) {
    if (err instanceof AppError && err.status === 412) throw widgetLimitReached();
    throw err;
  }
  const now = new Date();
  await ctx.db.insert(widgetMessages).values([
    { messageId: questionId, sessionId, role: 'user', content, status: 'done', createdAt: now, updatedAt: now },
    { messageId: answerId, sessionId, role: 'assistant', content: '', status: 'streaming', createdAt: now, updatedAt: now },
  ]);
  await ctx.db
    .update(widgetSessions)
    .set({ lastMessageAt: now, messagesCount: sql`${widgetSessions.messagesCount} + 1`, expiresAt: new Date(now.getTime() + WIDGET_SESSION_TTL_MS) })
    .where(eq(widgetSessions.sessionId, sessionId));
  const job: AnswerJob = {
    ownerId: owner.user.userId,
    widgetId: admitted.widget.widgetId,
    sessionId,
    messageId: answerId,
    avatar: { avatarId: admitted.avatar.avatarId, name: admitted.avatar.name, context: admitted.avatar.context },
    prompt: content,
    lang: options.lang,
    // null: no limit (a staff or unlimited owner holds nothing).
    wordLimit: reservation?.limit ?? null,
    maxTokens,
    log: options.log,
  };
  return { run: (sink) => startAnswer(ctx, job, sink) };
}
