// /api/widgets (the owner's chat widgets) and /api/widget/{publicKey}/… (the public widget API); issue 15
// items 3-4. Filled in by the widgets work.
import type { FastifyInstance } from 'fastify';

export async function widgetRoutes(_app: FastifyInstance) {}
