// Who may see and do what with a document (DESIGN.md §7; spec part 2 "Main navigation tabs": Documents are
// not in organization scope, except through campaigns).
// Personal: the author's documents with organization_id null. Inside an organization: for now only the
// author sees the documents they made there; campaign grants (issue 15 item 2) widen reads through the
// campaigns feature, not here. Anything else is a 404 on every route, never a 403.
import { DOCUMENT_ACTIONS, type DocumentAction } from '@pluma/common/documents';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { documents } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { forbidden, notFound } from '../../platform/http/errors';
import { abilitiesOf } from '../../platform/policy/abilities';

export type DocumentRow = typeof documents.$inferSelect;

/** The scope of every list, read and write: the actor's own documents in the request's context. */
export function visibleTo(actor: Pick<Actor, 'user' | 'organization'>): SQL {
  const context = actor.organization ? eq(documents.organizationId, actor.organization.organizationId) : isNull(documents.organizationId);
  return and(eq(documents.userId, actor.user.userId), context) as SQL;
}

const isVisible = (actor: Actor, row: DocumentRow) =>
  row.userId === actor.user.userId && row.organizationId === (actor.organization?.organizationId ?? null);

export function can(actor: Actor, action: DocumentAction, row: DocumentRow): boolean {
  switch (action) {
    case 'edit':
    case 'delete':
    case 'export':
      return isVisible(actor, row);
  }
}

export const documentAbilities = (actor: Actor, row: DocumentRow) => abilitiesOf(can, DOCUMENT_ACTIONS, actor, row);

/** The document if the actor sees it (404 otherwise) and may take `action` on it (403 otherwise). */
export async function requireDocument(db: Db | Tx, actor: Actor, documentId: number, action?: DocumentAction): Promise<DocumentRow> {
  const [row] = await db
    .select()
    .from(documents)
    .where(and(visibleTo(actor), eq(documents.documentId, documentId)))
    .limit(1);
  if (!row) throw notFound();
  if (action && !can(actor, action, row)) throw forbidden();
  return row;
}
