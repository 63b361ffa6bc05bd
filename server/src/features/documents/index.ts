// The documents feature's public face (eslint.config.js, feature boundaries).
import type { FastifyInstance } from 'fastify';
import { documentGenerationRoutes } from './generate-routes';
import { documentRoutes as documentPageRoutes } from './routes';

/** The documents' own routes and their generation routes (POST /documents/avatar-output and the generations). */
export async function documentRoutes(app: FastifyInstance) {
  await documentPageRoutes(app);
  await documentGenerationRoutes(app);
}
