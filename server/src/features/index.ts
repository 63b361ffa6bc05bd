// Every feature's routes, mounted under /api. Add one line per feature.
import type { FastifyInstance } from 'fastify';

export async function featureRoutes(app: FastifyInstance) {
  void app;
}
