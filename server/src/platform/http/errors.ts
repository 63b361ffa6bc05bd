// One error shape for the whole API: { error, message, details?, requestId? } (DESIGN.md §4).
import { ErrorIds, type ApiErrorBody } from '@pluma/common/errors';
import { translate, type MessageKey } from '@pluma/common/messages';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { serverMessages } from '@pluma/common/messages';
import { clientErrorFromDatabase } from './database-errors';
import { requestLang } from './lang';

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly errorId: string,
    readonly messageKey: MessageKey,
    readonly params: Record<string, string | number> = {},
    readonly extra: Partial<ApiErrorBody> = {},
  ) {
    super(messageKey);
  }
}

export const notFound = () => new AppError(404, ErrorIds.notFound, 'not_found');
export const forbidden = () => new AppError(403, ErrorIds.forbidden, 'forbidden');
export const unauthenticated = () => new AppError(401, ErrorIds.unauthenticated, 'unauthenticated');
export const badRequest = (messageKey: MessageKey, details?: Record<string, string>, params?: Record<string, string>) =>
  new AppError(400, ErrorIds.validation, messageKey, params, details ? { details } : {});

const isMessageKey = (text: string): text is MessageKey => Object.hasOwn(serverMessages.en, text);

interface IssueView {
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/**
 * The words of one validation issue: its message when that is a message key (the schema's own), else a
 * translated message chosen by the issue's kind, so zod's built-in English never reaches a user.
 */
function issueText(lang: 'en' | 'es', issue: IssueView): string {
  const message = issue.message ?? '';
  if (isMessageKey(message)) return translate(lang, message);
  const p = issue.params ?? {};
  const origin = String(p.origin ?? '');
  const numeric = origin === 'number' || origin === 'int' || origin === 'bigint';
  const plural = origin === 'array' || origin === 'set';
  switch (issue.keyword) {
    case 'too_big':
      return translate(lang, numeric ? 'number_too_big' : plural ? 'too_many_items' : 'text_too_long', { max: String(p.maximum) });
    case 'too_small':
      if (!numeric && Number(p.minimum) === 1) return translate(lang, 'field_required');
      return translate(lang, numeric ? 'number_too_small' : plural ? 'too_few_items' : 'text_too_short', { min: String(p.minimum) });
    case 'invalid_type':
      return translate(lang, /received undefined/.test(message) ? 'field_required' : 'invalid_type');
    case 'invalid_value':
      return translate(lang, 'invalid_choice');
    case 'invalid_format':
      return translate(lang, 'invalid_format');
    case 'unrecognized_keys':
      return translate(lang, 'unknown_field');
    case 'invalid_union':
      return translate(lang, 'invalid_type');
    default:
      return translate(lang, 'validation_error');
  }
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setNotFoundHandler((request, reply) => sendError(request, reply, notFound()));
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const lang = requestLang(request);
    if (error instanceof AppError) return sendError(request, reply, error);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details: Record<string, string> = {};
      for (const v of error.validation) {
        const field = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || ((v.params.issue as { path?: PropertyKey[] } | undefined)?.path ?? []).join('.') || '_';
        details[field] ??= issueText(lang, v);
      }
      const first = Object.values(details)[0];
      return reply.status(400).send({
        error: ErrorIds.validation,
        message: first ?? translate(lang, 'validation_error'),
        details,
      } satisfies ApiErrorBody);
    }
    // A value the database refused (out-of-range id, NUL, year 0, unknown reference…) is the client's error.
    const fromDatabase = clientErrorFromDatabase(error);
    if (fromDatabase) {
      const { status, errorId, messageKey, params, details } = fromDatabase;
      return sendError(request, reply, new AppError(status, errorId, messageKey, params, details ? { details } : {}));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return sendError(request, reply, new AppError(413, ErrorIds.tooLarge, 'payload_too_large'));
    if (status === 429) return sendError(request, reply, new AppError(429, ErrorIds.rateLimited, 'rate_limited'));
    if (status >= 400 && status < 500) {
      // Fastify's own refusals (malformed JSON, empty body…) speak English; a 400 is worded like ours.
      const message = status === 400 ? translate(lang, 'validation_error') : error.message;
      return reply.status(status).send({ error: error.code ?? 'bad_request', message } satisfies ApiErrorBody);
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({
      error: ErrorIds.internal,
      message: translate(lang, 'internal_error'),
      requestId: request.id,
    } satisfies ApiErrorBody);
  });
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const lang = requestLang(request);
  const body: ApiErrorBody = { error: error.errorId, message: translate(lang, error.messageKey, error.params), ...error.extra };
  // Per-field details given as message keys are worded like the message.
  if (body.details) {
    body.details = Object.fromEntries(
      Object.entries(body.details).map(([field, text]) => [field, isMessageKey(text) ? translate(lang, text, error.params) : text]),
    );
  }
  return reply.status(error.status).send(body);
}
