// /api routes of the campaigns feature (issue 15). Registered early so parallel work does not collide on features/index.ts.
import type { FastifyInstance } from 'fastify';

export async function campaignRoutes(_root: FastifyInstance) {}
