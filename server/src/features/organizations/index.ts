// The organizations feature's public face: what other features may use (eslint.config.js, feature boundaries).
export { organizationsEnabledGate } from './enabled';
export { organizationAccess, requireOrganization, roleCan, type OrganizationAccess } from './policy';
export { organizationRoutes } from './routes';
export { organizationMemberRoutes } from './members-routes';
