// Who may see and do what with a template (DESIGN.md §7; spec part 2 §6 "Template edit or delete: owner,
// admin, or when flagged editable. Public toggles for avatars and templates: admin-type check only"; §2
// "Prompt, Editable and Show Prompt controls visible to owner, staff, or on the create page; prompt shown to
// others only if show_prompt is set").
// A template is private to its author in its context (Personal, or the organization it was made in); a public
// one is visible to every user in every context; staff admins see every template. Anything else is a 404 on
// every route, never a 403, so the ids of other users' templates reveal nothing.
import { TEMPLATE_ACTIONS, TEMPLATE_TAXONOMY_ACTIONS, type TemplateAction, type TemplateTaxonomyAction } from '@pluma/common/templates';
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { templates } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { definePolicy, defineRules } from '../../platform/policy/define-policy';
import { sharedThroughCampaigns } from '../campaigns';

export type TemplateRow = typeof templates.$inferSelect;

type Who = Pick<Actor, 'user' | 'organization' | 'staffRole'>;

export const isAdmin = (actor: Pick<Actor, 'staffRole'>) => actor.staffRole === 'admin';
const isStaff = (actor: Pick<Actor, 'staffRole'>) => actor.staffRole !== null;

/** The actor's own templates in the context of this request. */
export function ownedBy(actor: Pick<Actor, 'user' | 'organization'>): SQL {
  const context = actor.organization ? eq(templates.organizationId, actor.organization.organizationId) : isNull(templates.organizationId);
  return and(eq(templates.userId, actor.user.userId), context) as SQL;
}

/**
 * What GET /templates lists: own in this context, the public ones, and — inside an organization — those in a
 * campaign the actor sees (DESIGN.md §7 "private to the author unless shared, e.g. via a campaign"; read-only
 * for them: `can` gives them no action). admin=true: every template, admins only.
 */
export function listedFor(actor: Who, everything = false): SQL {
  if (everything && isAdmin(actor)) return sql`true`;
  return or(ownedBy(actor), eq(templates.public, true), sharedThroughCampaigns(actor, 'template', templates.templateId)) as SQL;
}

const isOwner = (actor: Actor, row: TemplateRow) => row.userId !== null && row.userId === actor.user.userId;
const isVisible = (actor: Actor, row: TemplateRow) =>
  isAdmin(actor) || row.public || (isOwner(actor, row) && row.organizationId === (actor.organization?.organizationId ?? null));

/**
 * The scope of every read and write by id: own in this context, public, or anything for admins. `can` gives
 * actions only on own, public or (admins) any template, so one shared through a campaign is read-only.
 */
export const templatePolicy = definePolicy<TemplateAction, TemplateRow>({
  actions: TEMPLATE_ACTIONS,
  table: templates,
  id: templates.templateId,
  visibleTo: (actor) => listedFor(actor, true),
  can(actor, action, row) {
    if (!isVisible(actor, row)) return false;
    const edits = isOwner(actor, row) || isAdmin(actor) || row.editable;
    switch (action) {
      case 'edit':
      case 'delete':
        return edits;
      case 'setPublic':
        return isAdmin(actor);
      case 'editPrompt':
        return edits && (isOwner(actor, row) || isStaff(actor));
      case 'export':
        return canReadPrompt(actor, row);
    }
  },
});

/** Whether the prompt (content) reaches this actor: owner, staff, or show_prompt. */
export function canReadPrompt(actor: Pick<Actor, 'user' | 'staffRole'>, row: Pick<TemplateRow, 'userId' | 'showPrompt'>): boolean {
  // Rows reach here through visibleTo's SQL (own, public, shared by a campaign, or an admin's).
  return (row.userId !== null && row.userId === actor.user.userId) || isStaff(actor) || row.showPrompt;
}

/** Template tags and types (what the filters list): every signed-in user reads them; staff admins manage them. */
export const templateTaxonomyRules = defineRules<TemplateTaxonomyAction, null>({
  actions: TEMPLATE_TAXONOMY_ACTIONS,
  can: (actor) => isAdmin(actor),
});
