import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';

/**
 * Base URL for links we send (welcome, password reset): PUBLIC_URL, else the request's own origin.
 * The fallback trusts the Host / X-Forwarded-Host header, so production should set PUBLIC_URL
 * (docs/configuration.md); otherwise a forged Host could put a foreign origin into a reset email.
 */
export function publicBaseUrl(ctx: AppContext, request: FastifyRequest): string {
  if (ctx.env.PUBLIC_URL) return ctx.env.PUBLIC_URL.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}
