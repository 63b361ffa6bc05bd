// /api/widget/{publicKey}/start and /messages (contract B "Public API"): no user authentication. Every request,
// the CORS preflight included, passes the origin check first (public-gate.ts); refusals are { code, message }
// in the request's language; CORS headers only ever name an allowed origin.
import { ErrorIds } from '@pluma/common/errors';
import { serverMessages, translate, type MessageKey } from '@pluma/common/messages';
import {
  WIDGET_ERROR_CODES,
  widgetErrorBody,
  widgetPublicKeyParams,
  widgetSendRequest,
  widgetStartRequest,
  widgetStartResponse,
  widgetStopResponse,
  type WidgetErrorBody,
} from '@pluma/common/widgets';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, notFound } from '../../platform/http/errors';
import { stopAllAnswers, stopSessionAnswer } from './answer';
import {
  admitOrigin,
  ipHashOf,
  limiter,
  publicLang,
  requireAnsweringOwner,
  visitorTokenInvalid,
  WIDGET_RATE_LIMITS,
  widgetDisabled,
  WidgetRefusal,
  type PublicWidget,
} from './public-gate';
import { publicBaseUrl } from '../../platform/http/public-url';
import { presentVisitorStart, visitorMessage } from './present';
import { sendVisitorMessage, startVisitorSession, visitorSession } from './public-service';

const tags = ['widget-public'];
const errors = { 400: widgetErrorBody, 401: widgetErrorBody, 402: widgetErrorBody, 403: widgetErrorBody, 404: widgetErrorBody, 429: widgetErrorBody };

const isMessageKey = (text: string): text is MessageKey => Object.hasOwn(serverMessages.en, text);

function errorBody(request: FastifyRequest, error: FastifyError | Error): { status: number; body: WidgetErrorBody } {
  const lang = publicLang(request);
  if (error instanceof WidgetRefusal) return { status: error.status, body: { code: error.code, message: translate(lang, error.messageKey) } };
  if (error instanceof AppError) return { status: error.status, body: { code: error.errorId, message: translate(lang, error.messageKey, error.params) } };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0]?.message ?? '';
    const message = translate(lang, isMessageKey(first) ? first : 'validation_error');
    return { status: 400, body: { code: WIDGET_ERROR_CODES.validationError, message } };
  }
  const status = (error as FastifyError).statusCode ?? 500;
  if (status === 429) return { status, body: { code: WIDGET_ERROR_CODES.rateLimited, message: translate(lang, 'rate_limited') } };
  if (status >= 400 && status < 500) return { status, body: { code: WIDGET_ERROR_CODES.validationError, message: translate(lang, 'validation_error') } };
  return { status: 500, body: { code: ErrorIds.internal, message: translate(lang, 'internal_error') } };
}

const bearer = (request: FastifyRequest): string | null => {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value?.trim() ? value.trim() : null;
};

const admittedOf = (request: FastifyRequest): PublicWidget => {
  if (!request.publicWidget) throw new Error('the origin check did not run');
  return request.publicWidget;
};

export async function widgetPublicRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = errorBody(request, error);
    if (status >= 500) request.log.error({ err: error }, 'widget request failed');
    return reply.status(status).send(body);
  });
  // Routes under /api/widget/ that do not exist are still refused in the same shape.
  app.setNotFoundHandler((request, reply) => reply.status(404).send({ code: WIDGET_ERROR_CODES.widgetNotFound, message: translate(publicLang(request), 'widget_not_found') }));

  // Every request: the origin first (after the body is read, for the language of a refusal; before validation),
  // so nothing is answered to a website not listed.
  app.addHook('preValidation', async (request, reply) => {
    await admitOrigin(app, request, reply);
  });

  // Answers outlive their request but not the process (answer.ts).
  app.addHook('preClose', () => stopAllAnswers(ctx));

  const limits = WIDGET_RATE_LIMITS;
  const widgetKey = (request: FastifyRequest) => String(admittedOf(request).widget.widgetId);
  const startPerAddress = limiter(app, 'start-ip', limits.startPerAddress, (request) => request.ip);
  const startPerWidget = limiter(app, 'start-widget', limits.startPerWidget, widgetKey);
  const messagesPerAddress = limiter(app, 'messages-ip', limits.messagesPerAddress, (request) => request.ip);
  const messagesPerWidget = limiter(app, 'messages-widget', limits.messagesPerWidget, widgetKey);
  const messagesPerSession = limiter(app, 'messages-session', limits.messagesPerSession, (request) => String(request.visitorSessionId ?? 0));
  const stopsPerSession = limiter(app, 'stop-session', limits.stopsPerSession, (request) => String(request.visitorSessionId ?? 0));

  /** The session the request's visitor token names (401 visitor_token_invalid otherwise). */
  const requireVisitorSession = async (request: FastifyRequest) => {
    const admitted = admittedOf(request);
    if (!admitted.widget.enabled) throw widgetDisabled();
    const token = bearer(request);
    const session = token ? await visitorSession(ctx, admitted, token) : null;
    if (!session) throw visitorTokenInvalid();
    request.visitorSessionId = session.sessionId;
  };

  const preflight = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(204)
      .header('Access-Control-Allow-Methods', 'POST, OPTIONS')
      .header('Access-Control-Allow-Headers', 'Content-Type, Authorization')
      .header('Access-Control-Max-Age', '600')
      .send();
  app.options('/:publicKey/start', { schema: { hide: true } }, preflight);
  app.options('/:publicKey/messages', { schema: { hide: true } }, preflight);
  app.options('/:publicKey/messages/stop', { schema: { hide: true } }, preflight);

  app.post(
    '/:publicKey/start',
    { schema: { tags, params: widgetPublicKeyParams, body: widgetStartRequest.optional(), response: { 200: widgetStartResponse, ...errors } } },
    async (request) => {
      const admitted = admittedOf(request);
      if (!admitted.widget.enabled) throw widgetDisabled();
      await startPerAddress(request);
      await startPerWidget(request);
      await requireAnsweringOwner(ctx, admitted);
      const body = request.body ?? {};
      const started = await startVisitorSession({
        ctx,
        admitted,
        sessionToken: body.new_chat ? undefined : body.session_token,
        ipHash: ipHashOf(ctx.env.APP_SECRET, request.ip),
      });
      return presentVisitorStart(admitted, started, publicBaseUrl(ctx));
    },
  );

  app.post(
    '/:publicKey/messages',
    {
      schema: { tags, params: widgetPublicKeyParams, body: widgetSendRequest, response: { ...errors } },
      // The token before the body is validated: a stale page learns first that it must start again.
      preValidation: async (request) => {
        await requireVisitorSession(request);
        await messagesPerSession(request);
        await messagesPerAddress(request);
        await messagesPerWidget(request);
      },
    },
    async (request, reply) => {
      const admitted = admittedOf(request);
      const owner = await requireAnsweringOwner(ctx, admitted);
      const lang = publicLang(request);
      const answer = await sendVisitorMessage({ ctx, admitted, owner, sessionId: request.visitorSessionId ?? 0, content: request.body.content, lang, log: request.log });
      // From here the response is ours: server-sent events on the POST response (contract B).
      reply.hijack();
      const raw = reply.raw;
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) raw.setHeader(name, value);
      raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
      let open = true;
      raw.on('close', () => (open = false));
      const write = (event: string, data: unknown) => {
        if (open && !raw.writableEnded) raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      await answer.run({
        delta: (text) => write('delta', { text }),
        done: (message) => {
          if (message.status === 'failed' && !message.content) {
            write('error', { code: WIDGET_ERROR_CODES.answerFailed, message: translate(lang, 'widget_answer_failed') });
          } else {
            write('done', { message: visitorMessage({ role: 'assistant', content: message.content, status: message.status }) });
          }
          if (!raw.writableEnded) raw.end();
        },
      });
      return reply;
    },
  );

  // issue 30 item 1: the visitor's Stop, for their own session's answer only (the visitor token names the
  // session); it ends 'stopped' with its text. Nothing to stop in the session: 404.
  app.post(
    '/:publicKey/messages/stop',
    {
      schema: { tags, params: widgetPublicKeyParams, response: { 200: widgetStopResponse, ...errors } },
      preValidation: async (request) => {
        await requireVisitorSession(request);
        await stopsPerSession(request);
      },
    },
    async (request) => {
      const answer = await stopSessionAnswer(ctx, request.visitorSessionId ?? 0);
      if (!answer) throw notFound();
      return { message: visitorMessage(answer) };
    },
  );
}

declare module 'fastify' {
  interface FastifyRequest {
    visitorSessionId?: number;
  }
}
