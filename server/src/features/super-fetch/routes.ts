// /api routes of the super-fetch feature (issue 14). Placeholder registered early so helpers do not collide on features/index.ts.
import type { FastifyInstance } from 'fastify';

export async function superFetchRoutes(_root: FastifyInstance) {}
