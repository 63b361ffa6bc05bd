// /api routes of the ideas feature (issue 14). Placeholder registered early so helpers do not collide on features/index.ts.
import type { FastifyInstance } from 'fastify';

export async function ideaRoutes(_root: FastifyInstance) {}
