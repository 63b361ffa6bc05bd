// One policy vocabulary (DESIGN.md §7, issue 29): each area defines its policy once — its actions (from
// common/), the SQL scope of what an actor sees (`visibleTo`), and `can(actor, action, row)` — and gets from it
// the rest: `authorize` (404 for a row the actor does not see, 403 — or 404 where the area says so — for an
// action refused on a row they do see), `find`/`require` by id through the scope, and the `abilities` its
// presenters show, derived from `can` and never written by hand (Outline's presented policies).
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import type { Actor } from '../auth/actor';
import { forbidden, notFound } from '../http/errors';

export interface PolicySpec<Action extends string, Row, Who = Actor> {
  /** The area's actions, in the order presenters list them (common/<area>.ts). */
  actions: readonly Action[];
  can(actor: Who, action: Action, row: Row): boolean;
  /**
   * What a refused action on a row the actor sees answers: 403 (the default), or 404 where even a refusal
   * must not confirm the row (e.g. rows that are only ever their owner's).
   */
  refuseWith?: 'forbidden' | 'notFound';
  /** The area's own 404, where the spec words it (e.g. "Product not found"); the generic one otherwise. */
  notFound?: () => Error;
}

/** A policy over a table's rows: what the actor sees, in SQL, and how `find`/`require` look a row up. */
export interface TablePolicySpec<Action extends string, Row, Who = Actor> extends PolicySpec<Action, Row, Who> {
  table: PgTable;
  /** The primary key column `require`/`find` look rows up by. */
  id: AnyPgColumn;
  /** The columns `find`/`require` read (default: all); a table's stored search keys are left out. */
  columns?: Record<string, AnyPgColumn>;
  /** What the actor sees, in SQL: every list, read and write goes through it. */
  visibleTo(actor: Who): SQL;
}

export interface Policy<Action extends string, Row, Who = Actor> extends PolicySpec<Action, Row, Who> {
  /** `{ action: boolean }` for each action, as `can` decides (what presenters add as `abilities`). */
  abilities(actor: Who, row: Row): Record<Action, boolean>;
  /** Throws the area's refusal unless the actor may take `action` on this (visible) row. */
  authorize(actor: Who, action: Action, row: Row): Row;
}

export interface TablePolicy<Action extends string, Row, Who = Actor> extends Policy<Action, Row, Who>, TablePolicySpec<Action, Row, Who> {
  /** The row by id if the actor sees it, else null; `forUpdate` locks it for the rest of the transaction. */
  find(db: Db | Tx, actor: Who, id: number, options?: FindOptions): Promise<Row | null>;
  /** The row by id: 404 unless the actor sees it; then `authorize` for `action` when one is given. */
  require(db: Db | Tx, actor: Who, id: number, action?: Action, options?: FindOptions): Promise<Row>;
}

export interface FindOptions {
  forUpdate?: boolean;
}

/** A policy over records that are not one table's rows (e.g. an avatar's file: the avatar and its link). */
export function defineRules<Action extends string, Row, Who = Actor>(spec: PolicySpec<Action, Row, Who>): Policy<Action, Row, Who> {
  return {
    ...spec,
    abilities: (actor, row) => Object.fromEntries(spec.actions.map((action) => [action, spec.can(actor, action, row)])) as Record<Action, boolean>,
    authorize(actor, action, row) {
      if (!spec.can(actor, action, row)) throw spec.refuseWith === 'notFound' ? (spec.notFound ?? notFound)() : forbidden();
      return row;
    },
  };
}

export function definePolicy<Action extends string, Row, Who = Actor>(spec: TablePolicySpec<Action, Row, Who>): TablePolicy<Action, Row, Who> {
  const policy: TablePolicy<Action, Row, Who> = {
    ...spec,
    ...defineRules(spec),
    async find(db, actor, id, options = {}) {
      const query = (spec.columns ? db.select(spec.columns) : db.select())
        .from(spec.table)
        .where(and(spec.visibleTo(actor), eq(spec.id, id)))
        .limit(1);
      const rows = (options.forUpdate ? await query.for('update') : await query) as Row[];
      return rows[0] ?? null;
    },
    async require(db, actor, id, action, options) {
      const row = await policy.find(db, actor, id, options);
      if (!row) throw (spec.notFound ?? notFound)();
      return action ? policy.authorize(actor, action, row) : row;
    },
  };
  return policy;
}

/** Who a policy scoped to "own, in this context" needs to know. */
export type ContextActor = Pick<Actor, 'user' | 'organization'>;

/**
 * The common scope "the actor's own, in the context of this request" (DESIGN.md §7: Personal =
 * `organization_id IS NULL AND user_id = actor`; inside an organization, that organization's), in SQL.
 */
export function ownInContext(columns: { userId: AnyPgColumn; organizationId: AnyPgColumn }): (actor: ContextActor) => SQL {
  return (actor) =>
    and(
      eq(columns.userId, actor.user.userId),
      actor.organization ? eq(columns.organizationId, actor.organization.organizationId) : isNull(columns.organizationId),
    ) as SQL;
}

/** The same rule on a row already read. */
export function isOwnInContext(actor: ContextActor, row: { userId: number | null; organizationId: number | null }): boolean {
  return row.userId === actor.user.userId && row.organizationId === (actor.organization?.organizationId ?? null);
}
