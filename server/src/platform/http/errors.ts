// One error shape for the whole API: { error, message, details?, requestId? } (DESIGN.md §4).
import { ErrorIds, type ApiErrorBody } from '@pluma/common/errors';
import { translate, type MessageKey } from '@pluma/common/messages';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { serverMessages } from '@pluma/common/messages';
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

/** A zod issue message is a message key when it names one; otherwise it is shown as is. */
function issueText(lang: 'en' | 'es', message: string): string {
  return message in serverMessages.en ? translate(lang, message as MessageKey) : message;
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
        details[field] ??= issueText(lang, v.message ?? '');
      }
      const first = Object.values(details)[0];
      return reply.status(400).send({
        error: ErrorIds.validation,
        message: first ?? translate(lang, 'validation_error'),
        details,
      } satisfies ApiErrorBody);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return sendError(request, reply, new AppError(413, ErrorIds.tooLarge, 'payload_too_large'));
    if (status === 429) return sendError(request, reply, new AppError(429, ErrorIds.rateLimited, 'rate_limited'));
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ error: error.code ?? 'bad_request', message: error.message } satisfies ApiErrorBody);
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
  return reply.status(error.status).send({
    error: error.errorId,
    message: translate(lang, error.messageKey, error.params),
    ...error.extra,
  } satisfies ApiErrorBody);
}
