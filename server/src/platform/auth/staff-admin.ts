// The staff-admin writes of a content area (template tags and types, workflows, tutorials: spec part 2 §6,
// staff manage them): the same guard in every such area, so it is declared once. The area's feature switch
// comes first: a switched-off feature is a 404 for everyone, before any 403 would tell that the route exists
// (docs/decisions.md "Feature switches on the server"); then the staff admin role (403, audited, guard.ts
// requireStaff); then the area's other gates (e.g. the access gate).
import { requireStaff, type Gate } from './guard';

/** Route options for signedIn: `signedIn(app, schema, staffAdminWrites(featureGate(app, 'tutorials_enabled')))`. */
export function staffAdminWrites(featureOn: Gate, ...gates: Gate[]): { gates: Gate[] } {
  return { gates: [featureOn, requireStaff('admin'), ...gates] };
}
