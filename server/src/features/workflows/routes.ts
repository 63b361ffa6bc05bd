// /api routes of the workflows feature (issue 14). Placeholder registered early so helpers do not collide on features/index.ts.
import type { FastifyInstance } from 'fastify';

export async function workflowRoutes(_root: FastifyInstance) {}
