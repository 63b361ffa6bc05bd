// /api/auth/phone/* (issue 33 item 1): ask for a sign-in code by SMS, then sign in with it. Visitors'
// routes: the limits (limits.ts and the per-account code limit) stand in for authentication.
import { ErrorIds } from '@pluma/common/errors';
import { phoneStartRequest, phoneStartResponse, phoneVerifyRequest } from '@pluma/common/phone-sign-in';
import { loginResponse } from '@pluma/common/users';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../../platform/http/errors';
import { requestLang } from '../../../platform/http/lang';
import { tooManyAttempts } from '../attempts-http';
import { MINUTE_MS } from '../rate-limits';
import { beginCodeAttempt } from '../two-factor/code-limits-http';
import { beginCodeCheckFromAddress, countSendToNumber, countStartFromAddress, type PhoneRefusal } from './limits';
import { findPhoneAccount, phoneAccountOf, phoneCodeInvalid, sendPhoneSignInCode, verifyPhoneSignInCode } from './code-sign-in';

function refused(reply: FastifyReply, refusal: PhoneRefusal): AppError {
  const error = tooManyAttempts(reply, refusal.retryAfterMs);
  return refusal.reason === 'number_wait' ? new AppError(429, ErrorIds.rateLimited, 'phone_code_wait') : error;
}

export async function phoneSignInRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const tags = ['auth'];
  const perMinute = { rateLimit: { max: ctx.env.RATE_LIMIT_AUTH_PER_MINUTE, timeWindow: MINUTE_MS } };

  r.post('/phone/start', { config: perMinute, schema: { tags, body: phoneStartRequest, response: { 200: phoneStartResponse } } }, async (request, reply) => {
    const lang = request.body.lang ?? requestLang(request);
    const fromAddress = await countStartFromAddress(ctx, request.ip);
    if (fromAddress) throw refused(reply, fromAddress);
    const account = await findPhoneAccount({ ctx, phone: request.body.phone, lang });
    const toNumber = await countSendToNumber(ctx, account.userId);
    if (toNumber) throw refused(reply, toNumber);
    return sendPhoneSignInCode({ ctx, account, lang: request.body.lang });
  });

  r.post('/phone/verify', { config: perMinute, schema: { tags, body: phoneVerifyRequest, response: { 200: loginResponse } } }, async (request, reply) => {
    const fromAddress = await beginCodeCheckFromAddress(ctx, request.ip);
    if ('refusal' in fromAddress) throw refused(reply, fromAddress.refusal);
    const account = await phoneAccountOf({ ctx, phone: request.body.phone });
    if (!account) throw phoneCodeInvalid();
    const perAccount = await beginCodeAttempt(ctx, reply, `phone:${account.userId}`);
    const response = await verifyPhoneSignInCode({ ctx, userId: account.userId, code: request.body.code, deviceTokens: request.body.device_tokens });
    await perAccount.succeeded();
    await fromAddress.succeeded();
    return response;
  });
}
