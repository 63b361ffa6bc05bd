// spec part 2 §1: "Organizations (teams) exist when enabled". With `organizations_enabled` off, every
// organization and group call answers 404 as if none existed — for staff too: an admin turns the setting
// back on first (docs/decisions.md "Organizations").
import type { FastifyInstance } from 'fastify';
import { getConfigBool } from '../../platform/appconfig/read';
import type { Gate } from '../../platform/auth/guard';
import { notFound } from '../../platform/http/errors';

export function organizationsEnabledGate(app: FastifyInstance): Gate {
  return async () => {
    if (!(await getConfigBool(app.ctx, 'organizations_enabled'))) throw notFound();
  };
}
