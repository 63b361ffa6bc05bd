// Templates (spec part 2 §2 "Templates", §3 "Template", §4, §5, §6, §7 "Templates", §9; part 1 §3
// `templates_default_sort`): requests and responses of /api/templates, shared by server and web.
// Fields are parsed by rules/template-fields.ts (the field syntax is documented there).
import { z } from 'zod';
import { CONVERSATION_SORT_KEYS, LANGUAGES } from './constants';
import { TEMPLATE_FIELD_TYPES } from './rules/template-fields';
import { id, idParam, text } from './schema-kit';

export { TEMPLATE_FIELD_LABEL_MAX, TEMPLATE_FIELD_TYPES } from './rules/template-fields';
export type { TemplateField, TemplateFieldType } from './rules/template-fields';

/** spec part 2 §9: templates 24 per page. */
export const TEMPLATES_PAGE_SIZE = 24;
/** spec part 2 §9: template cards show 1 tag. */
export const TEMPLATE_CARD_TAGS = 1;
export const TEMPLATE_NAME_MAX = 200;
export const TEMPLATE_DESCRIPTION_MAX = 1000;
/** A prompt is at most the chat's budget: 7500 tokens × 4 characters (spec part 2 §9). */
export const TEMPLATE_CONTENT_MAX = 30_000;
export const TEMPLATE_TAG_NAME_MAX = 60;
export const TEMPLATE_TYPE_NAME_MAX = 60;
export const TEMPLATE_MAX_TAGS = 10;
/** Templates in one export file / one import. */
export const TEMPLATE_IMPORT_MAX = 200;
export const TEMPLATE_EXPORT_FORMAT = 'pluma-templates' as const;
export const TEMPLATE_EXPORT_VERSION = 1 as const;

/** spec part 2 §2: Last Created, Last Used, A-Z, Z-A. The default comes from the `templates_default_sort` setting. */
export const TEMPLATE_SORT_KEYS = CONVERSATION_SORT_KEYS;
export const templateSortKey = z.enum(TEMPLATE_SORT_KEYS);
export type TemplateSortKey = z.infer<typeof templateSortKey>;
export const DEFAULT_TEMPLATE_SORT: TemplateSortKey = 'createdAt_desc';
/** The setting's value if it is a sort key, else createdAt_desc. */
export const templateSortFromSetting = (value: unknown): TemplateSortKey =>
  (TEMPLATE_SORT_KEYS as readonly unknown[]).includes(value) ? (value as TemplateSortKey) : DEFAULT_TEMPLATE_SORT;

export const templateLanguage = z.enum(LANGUAGES);
export type TemplateLanguage = z.infer<typeof templateLanguage>;

const flag = z.preprocess((v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' || v === '' ? false : v), z.boolean());

// ---- responses ----

export const templateField = z.object({
  name: z.string(),
  label: z.string(),
  type: z.enum(TEMPLATE_FIELD_TYPES),
  options: z.array(z.string()),
  order: z.number(),
  value: z.string(),
  isValidField: z.boolean(),
});

export const TEMPLATE_ACTIONS = ['edit', 'delete', 'setPublic', 'editPrompt', 'export'] as const;
export type TemplateAction = (typeof TEMPLATE_ACTIONS)[number];
/** The templates' tags and types (the filters' lists): staff admins manage them. */
export const TEMPLATE_TAXONOMY_ACTIONS = ['manage'] as const;
export type TemplateTaxonomyAction = (typeof TEMPLATE_TAXONOMY_ACTIONS)[number];

export const template = z.object({
  template_id: z.number(),
  name: z.string(),
  description: z.string(),
  /** The prompt; null when hidden from this actor (not the owner or staff, and show_prompt off). */
  content: z.string().nullable(),
  /** The type's name, or null. */
  type: z.string().nullable(),
  tags: z.array(z.string()),
  language: templateLanguage,
  public: z.boolean(),
  editable: z.boolean(),
  show_prompt: z.boolean(),
  /** null for a template of the seeded library (no author: the web shows 'Unknown Admin Name'). */
  user_id: z.number().nullable(),
  organization_id: z.number().nullable(),
  /** Whether the actor starred it. */
  favorite: z.boolean(),
  author: z.object({ name: z.string(), last_name: z.string() }).nullable(),
  /** Parsed from the content by the server (always given, even when the content is hidden). */
  fields: z.array(templateField),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When the actor last applied it (POST /templates/{id}/use), or null. */
  usedAt: z.string().nullable(),
  abilities: z.object({
    /** Save name, description, tags, type, language (owner, staff admin, or the template is editable). */
    edit: z.boolean(),
    delete: z.boolean(),
    /** The public toggle: admins only (spec part 2 §6). */
    setPublic: z.boolean(),
    /** Change content, editable and show_prompt: owner or staff (spec part 2 §2 "Prompt, Editable and Show Prompt"). */
    editPrompt: z.boolean(),
    /** The prompt is readable, so it can be exported. */
    export: z.boolean(),
  }),
});
export type Template = z.infer<typeof template>;

export const templateList = z.object({
  templates: z.array(template),
  total: z.number(),
  /** true: there are more than `total`, which is then the cap (shown as "1,000+"; server/src/db/capped-count.ts). */
  total_capped: z.boolean().optional(),
  /** Send as `cursor` with the next page number (faster deep pages); null on the last page. */
  next_cursor: z.string().nullable().optional(),
  page: z.number(),
  pageSize: z.number(),
});
export type TemplateList = z.infer<typeof templateList>;

export const templateTag = z.object({
  tag_id: z.number(),
  name: z.string(),
  /** Templates with this tag the actor sees (in this scope). */
  count: z.number(),
});
export type TemplateTag = z.infer<typeof templateTag>;
export const templateTagList = z.object({ tags: z.array(templateTag) });
export type TemplateTagList = z.infer<typeof templateTagList>;

export const templateType = z.object({ type_id: z.number(), name: z.string(), count: z.number() });
export type TemplateType = z.infer<typeof templateType>;
export const templateTypeList = z.object({ types: z.array(templateType) });
export type TemplateTypeList = z.infer<typeof templateTypeList>;

export const favoriteResponse = z.object({ template_id: z.number(), favorite: z.boolean() });
export type FavoriteResponse = z.infer<typeof favoriteResponse>;
/**
 * POST /templates/{id}/use: records that the actor applied it now ("Last Used") and, given `values` (by field
 * name), checks them (400 with details per field name: 'The input can't be empty'...) and answers the filled
 * prompt to send as the chat message. This is how an apply screen fills a template whose prompt it cannot read
 * (content null). Without `values`, `prompt` is null.
 */
export const useTemplateRequest = z
  .object({ values: z.record(text().max(200), text().max(TEMPLATE_CONTENT_MAX)).optional() })
  .nullish();
export type UseTemplateRequest = z.input<typeof useTemplateRequest>;
export const useResponse = z.object({ template_id: z.number(), usedAt: z.string(), prompt: z.string().nullable() });
export type UseTemplateResponse = z.infer<typeof useResponse>;
export const deletedTemplateResponse = z.object({ deleted: z.literal(true) });

// ---- requests ----

/**
 * GET /templates (and /templates/all, /public, /tag/{x}, /type/{x}, which take the same query).
 * - tag, type: names; favorites: only the actor's stars; query: in name and description;
 * - language: en | es (absent: both); page from 1, 24 per page; sortBy absent: the `templates_default_sort` setting;
 * - admin=true (staff admins only, else 403): every template of every user, for managing them.
 */
export const listTemplatesQuery = z.object({
  tag: text().trim().max(TEMPLATE_TAG_NAME_MAX).optional(),
  type: text().trim().max(TEMPLATE_TYPE_NAME_MAX).optional(),
  favorites: flag.optional(),
  query: text().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  /** The previous page's next_cursor, sent with the next page number: that page is read from it (server/src/db/page-cursor.ts). */
  cursor: text().max(500).optional(),
  language: templateLanguage.optional(),
  sortBy: templateSortKey.optional(),
  admin: flag.optional(),
  organization_id: idParam().optional(),
});
export type ListTemplatesQuery = z.input<typeof listTemplatesQuery>;

export const templateIdParams = z.object({ id: idParam() });
export const templateNameParams = z.object({ name: text().trim().min(1).max(TEMPLATE_TAG_NAME_MAX) });

const tagName = text().trim().max(TEMPLATE_TAG_NAME_MAX);
/** Empty texts pass the schema: the service answers 'The input can't be empty' per input (spec part 2 §5). */
const draftText = (max: number) => text().max(max);

/**
 * POST /templates. Fields are never sent: the server parses them from `content`. `tags` and `type` are names
 * from the admin-managed lists. `public` true is for admins only (403 otherwise).
 */
export const createTemplateRequest = z.object({
  name: draftText(TEMPLATE_NAME_MAX),
  description: draftText(TEMPLATE_DESCRIPTION_MAX),
  content: draftText(TEMPLATE_CONTENT_MAX),
  type: tagName.nullable().optional(),
  tags: z.array(tagName).max(TEMPLATE_MAX_TAGS).optional(),
  language: templateLanguage.default('en'),
  public: z.boolean().optional(),
  editable: z.boolean().optional(),
  show_prompt: z.boolean().optional(),
  organization_id: idParam().nullable().optional(),
});
export type CreateTemplateRequest = z.input<typeof createTemplateRequest>;

/**
 * PUT /templates: what is sent changes. `content`, `editable`, `show_prompt` need abilities.editPrompt and
 * `public` abilities.setPublic (403 otherwise).
 */
export const updateTemplateRequest = z.object({
  template_id: id(),
  name: draftText(TEMPLATE_NAME_MAX).optional(),
  description: draftText(TEMPLATE_DESCRIPTION_MAX).optional(),
  content: draftText(TEMPLATE_CONTENT_MAX).optional(),
  type: tagName.nullable().optional(),
  tags: z.array(tagName).max(TEMPLATE_MAX_TAGS).optional(),
  language: templateLanguage.optional(),
  public: z.boolean().optional(),
  editable: z.boolean().optional(),
  show_prompt: z.boolean().optional(),
});
export type UpdateTemplateRequest = z.input<typeof updateTemplateRequest>;

/** POST /templates/favorite: toggles the actor's star. */
export const favoriteRequest = z.object({ template_id: id() });

/** POST /templates/tags and /templates/types (staff admins): a new name in the list. */
export const createTagRequest = z.object({ name: text().trim().min(1, { error: 'template_input_empty' }).max(TEMPLATE_TAG_NAME_MAX) });
export const createTypeRequest = z.object({ name: text().trim().min(1, { error: 'template_input_empty' }).max(TEMPLATE_TYPE_NAME_MAX) });
// DELETE /templates/tags/{id}, /templates/types/{id} (staff admins): templateIdParams; templates lose the tag / type.

// ---- export and import (a JSON file of one or many templates) ----

/** One template in an export file: what a copy needs, nothing tied to this install (no ids, no author). */
export const exportedTemplate = z.object({
  name: text().max(TEMPLATE_NAME_MAX),
  description: text().max(TEMPLATE_DESCRIPTION_MAX),
  content: text().max(TEMPLATE_CONTENT_MAX),
  type: tagName.nullable().default(null),
  tags: z.array(tagName).max(TEMPLATE_MAX_TAGS).default([]),
  language: templateLanguage.default('en'),
  public: z.boolean().default(false),
  editable: z.boolean().default(false),
  show_prompt: z.boolean().default(false),
});
export type ExportedTemplate = z.infer<typeof exportedTemplate>;

/** GET /templates/export?ids=1,2,3 answers this as a file (templates-YYYY-MM-DD.json); POST /templates/import takes it. */
export const templateExportFile = z.object({
  format: z.literal(TEMPLATE_EXPORT_FORMAT),
  version: z.literal(TEMPLATE_EXPORT_VERSION),
  /** When the file was made (informative; not read on import). */
  exportedAt: text().max(64),
  templates: z.array(exportedTemplate).min(1).max(TEMPLATE_IMPORT_MAX),
});
export type TemplateExportFile = z.infer<typeof templateExportFile>;

/** GET /templates/export: ids comma-separated (1 to 200), each visible to the actor with a readable prompt. */
export const exportTemplatesQuery = z.object({
  ids: text()
    .trim()
    .regex(/^\d+(,\d+)*$/, { error: 'invalid_id' })
    .transform((v) => [...new Set(v.split(',').map(Number))])
    .pipe(z.array(id()).min(1).max(TEMPLATE_IMPORT_MAX)),
  organization_id: idParam().optional(),
});

/**
 * POST /templates/import: the export file as the JSON body (the web reads the chosen file). Each template is
 * checked like a save; copies belong to the importer in the current scope. `public` is kept only for admins
 * (others' copies are private); admins' unknown tags and types are added to the lists, others' are dropped.
 */
export const importTemplatesRequest = templateExportFile;
export const importTemplatesResponse = z.object({ imported: z.number(), templates: z.array(template) });
export type ImportTemplatesResponse = z.infer<typeof importTemplatesResponse>;
