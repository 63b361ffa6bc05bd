// What other features use of organizations (features meet through index.ts).
export { WithActiveOrganization } from './ActiveOrganization';
export { switchOrganization } from './organization-context';
export { useActiveOrganizationRecord } from './organizations-api';
