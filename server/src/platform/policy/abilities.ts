// The one vocabulary of authorization (DESIGN.md §7): each feature's policy.ts exports
// `can(actor, action, record)`, and its presenter adds `abilities` — the actions the actor may take on the
// record — so the web shows exactly what the server allows.
import type { Actor } from '../auth/actor';

export type Can<Action extends string, Row> = (actor: Actor, action: Action, row: Row) => boolean;

/** `{ action: boolean }` for each of `actions`, as `can` decides. */
export function abilitiesOf<Action extends string, Row>(can: Can<Action, Row>, actions: readonly Action[], actor: Actor, row: Row): Record<Action, boolean> {
  return Object.fromEntries(actions.map((action) => [action, can(actor, action, row)])) as Record<Action, boolean>;
}
