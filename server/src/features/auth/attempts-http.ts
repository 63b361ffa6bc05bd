// Pieces the auth routes share (kept apart from routes.ts so its submodules' routes can use them).
import { ErrorIds } from '@pluma/common/errors';
import type { FastifyReply } from 'fastify';
import { AppError } from '../../platform/http/errors';
import type { LimitReason } from './account-limits';

/** The 429 for a refused attempt, with Retry-After; an account wait says the reset link is a way out. */
export function tooManyAttempts(reply: FastifyReply, retryAfterMs: number, reason: LimitReason = 'address'): AppError {
  reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
  return new AppError(429, ErrorIds.rateLimited, reason === 'account' ? 'account_locked' : 'rate_limited');
}
