// /api routes of the templates feature (issue 14). Placeholder registered early so helpers do not collide on features/index.ts.
import type { FastifyInstance } from 'fastify';

export async function templateRoutes(_root: FastifyInstance) {}
