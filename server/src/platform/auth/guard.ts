// Authentication, the organization a request acts in, and staff authorization for routes: declare a route
// with `signedIn(app, schema)` or `signedIn(app, schema, { staff: 'admin' })` (DESIGN.md §7).
import type { StaffRole } from '@pluma/common/constants';
import { ErrorIds } from '@pluma/common/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, forbidden, unauthenticated } from '../http/errors';
import type { Actor } from './actor';
import { resolveActor } from './actors';
import { actorInRequestedOrganization, touchLastUse } from './organization';

export type { Actor, UserRow } from './actor';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
    /** Set by requireStaff: the request is audited when it changes something. */
    staffAudit: boolean;
    /** The membership whose last_use is written if the request succeeds (organization.ts). */
    organizationLastUseDue: number | null;
  }
  interface FastifyInstance {
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value.trim() : null;
}

/** Resolves a bearer token to an actor, or the reason it is refused (actors.ts; cached per token). */
export function actorFromToken(app: FastifyInstance, token: string): Promise<Actor | 'expired' | null> {
  return resolveActor(app.ctx, token);
}

export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('actor', null);
  app.decorateRequest('staffAudit', false);
  app.decorateRequest('organizationLastUseDue', null);
  // A membership's last use is recorded by a request that succeeded, so a refused one changes nothing.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.organizationLastUseDue !== null && reply.statusCode < 400) {
      await touchLastUse(app.ctx.db, request.organizationLastUseDue).catch((err) => request.log.error({ err }, 'last_use write failed'));
    }
    return payload;
  });
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw unauthenticated();
    const actor = await actorFromToken(app, token);
    if (actor === 'expired') throw new AppError(401, ErrorIds.tokenExpired, 'token_expired');
    if (!actor) throw unauthenticated();
    const resolved = await actorInRequestedOrganization(app.ctx.db, actor, request);
    request.actor = resolved.actor;
    request.organizationLastUseDue = resolved.lastUseDue;
  });
});

/** The actor of an authenticated route (throws if the route forgot `app.authenticate`). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthenticated();
  return request.actor;
}

/** 'admin' admits admins only; 'manager' admits managers and admins. Changes made are audited. */
export function requireStaff(role: StaffRole) {
  return async (request: FastifyRequest) => {
    const actorRole = request.actor?.staffRole;
    const allowed = role === 'admin' ? actorRole === 'admin' : actorRole === 'admin' || actorRole === 'manager';
    // A staff admin signed in without a second factor: told why, so the web can send them to enroll.
    if (!allowed && request.actor?.staffRoleAwaitingSecondFactor) throw new AppError(403, ErrorIds.twoFactorRequired, 'two_factor_required');
    if (!allowed) throw forbidden();
    request.staffAudit = true;
  };
}

const security = [{ bearer: [] }];

/**
 * The options of a route for signed-in users: authentication, the organization (a non-member gets 404) and
 * the staff role are checked before validation, so an anonymous or unauthorized bad request is a 401/403/404
 * and never reveals the route's rules; the OpenAPI document gets the bearer security.
 */
export function signedIn<S extends FastifySchema>(app: FastifyInstance, schema: S, options: { staff?: StaffRole; gates?: Gate[] } = {}) {
  const preValidation: Gate[] = [app.authenticate, ...(options.staff ? [requireStaff(options.staff)] : []), ...(options.gates ?? [])];
  return { preValidation, schema: { ...schema, security } };
}

/** A check run after authentication, before validation (e.g. credits/access-gate.ts accessGate). */
export type Gate = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
