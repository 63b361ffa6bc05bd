// The feature switches as a route gate (feature-gate.ts holds the switches and requireFeature): HTTP by
// nature, so it lives with the routes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Gate } from '../../platform/auth/guard';
import { requireFeature, type FeatureSwitch } from './feature-gate';

/**
 * requireFeature as a route gate (platform/auth/guard.ts signedIn). `which` is one switch, several (any one
 * on admits: e.g. deleting an idea of either kind), or chosen from the request (runs before validation,
 * so it sees the raw params: e.g. GET /ideas/{kind}).
 */
export function featureGate(
  app: FastifyInstance,
  which: FeatureSwitch | readonly FeatureSwitch[] | ((request: FastifyRequest) => FeatureSwitch | readonly FeatureSwitch[]),
): Gate {
  return async (request) => {
    await requireFeature(app.ctx, typeof which === 'function' ? which(request) : which);
  };
}
