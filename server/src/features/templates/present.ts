// The JSON of a template (spec part 2 §3 "Template"): exactly these fields leave the server, with the actor's
// abilities (DESIGN.md §7). The prompt (content) is null for an actor who may not read it (policy.ts); the
// fields are always given, parsed from the content here — never stored, never taken from a client.
import { parseTemplateFields } from '@pluma/common/rules/template-fields';
import type { Template, TemplateLanguage } from '@pluma/common/templates';
import type { Actor } from '../../platform/auth/actor';
import { canReadPrompt, templatePolicy, type TemplateRow } from './policy';
import type { TemplateListRow } from './service';

export interface TemplateExtras {
  typeName: string | null;
  tags: string[];
  favorite: boolean;
  author: { name: string; lastName: string } | null;
  usedAt: Date | string | null;
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

export function presentTemplate(actor: Actor, row: TemplateRow, extras: TemplateExtras): Template {
  return {
    template_id: row.templateId,
    name: row.name,
    description: row.description,
    content: canReadPrompt(actor, row) ? row.content : null,
    type: extras.typeName,
    tags: extras.tags,
    language: row.language as TemplateLanguage,
    public: row.public,
    editable: row.editable,
    show_prompt: row.showPrompt,
    user_id: row.userId,
    organization_id: row.organizationId,
    favorite: extras.favorite,
    author: extras.author ? { name: extras.author.name, last_name: extras.author.lastName } : null,
    fields: parseTemplateFields(row.content).fields,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    usedAt: iso(extras.usedAt),
    abilities: templatePolicy.abilities(actor, row),
  };
}

/** A template as the service reads it (service.ts selectPresentable): the row and its extras, as drivers return them. */
export const presentTemplateRow = (actor: Actor, r: TemplateListRow): Template =>
  presentTemplate(actor, r.template, {
    typeName: r.typeName,
    tags: typeof r.tags === 'string' ? (JSON.parse(r.tags) as string[]) : r.tags,
    favorite: r.favorite === true || (r.favorite as unknown) === 't',
    author: r.author?.name != null ? { name: r.author.name, lastName: r.author.lastName ?? '' } : null,
    usedAt: r.usedAt,
  });
