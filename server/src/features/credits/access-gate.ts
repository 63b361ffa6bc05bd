// requireAccess (access.ts) before a route's handler: a premium route answers 412 before it reads its body.
import type { FastifyInstance } from 'fastify';
import { actorOf, type Gate } from '../../platform/auth/guard';
import { requireAccess } from './access';

/** requireAccess as a route gate (platform/auth/guard.ts signedIn). */
export const accessGate =
  (app: FastifyInstance): Gate =>
  async (request) => {
    await requireAccess(app.ctx.db, actorOf(request));
  };
