// Template fields (spec part 2 §3 "Template" fields[], §5 "Template save", "Applying a template",
// "Workflow field values"): ONE parser used by the template editor, the apply screen, the server and
// workflows. The server never trusts fields sent by a client: it recomputes them from the content here.
//
// Syntax (docs/decisions.md "Templates"):
//   [Topic]                         a text field named "Topic"
//   [#Words]                        a number field named "Words" (the '#' marks a number; it is not in the name)
//   [Tone: formal/casual/friendly/] a select named "Tone" with options formal, casual, friendly. A ':' makes a
//                                   select; its options are separated by '/' and the trailing item (what follows
//                                   the final '/') is dropped when it is empty, so `a/b/` and `a/b` both give
//                                   a, b (spec: "options are separated by '/' in bracketed text with a trailing
//                                   item dropped"). An empty option in the middle (`a//b`) is an error.
// A bracket pair spans one line and holds no other bracket; `[and/or]` without ':' is a text field named
// "and/or". Names keep their accents and case (ñ, á are fine); they are trimmed, and inner runs of spaces
// become one. The label is the name: 1 to 254 characters. A name may appear only once in the content
// (compared without case), so every occurrence maps to exactly one value. Fields keep the order in which they
// first appear.
import type { MessageKey } from '../messages';

/** spec part 2 §3, §9: field label 1 to 254 characters. */
export const TEMPLATE_FIELD_LABEL_MAX = 254;

export const TEMPLATE_FIELD_TYPES = ['text', 'number', 'select'] as const;
export type TemplateFieldType = (typeof TEMPLATE_FIELD_TYPES)[number];

export interface TemplateField {
  /** The key of the value (what fillTemplate replaces). */
  name: string;
  /** What the form shows; the same text as the name. */
  label: string;
  type: TemplateFieldType;
  /** A select's options in order; [] for text and number. */
  options: string[];
  /** 0-based position of the field's first appearance. */
  order: number;
  /** The value being typed on the apply screen; '' when parsed. */
  value: string;
  /** Whether this field's definition is valid (no error below names it). */
  isValidField: boolean;
}

/** The spec's inline messages (part 2 §8) and the repeat rule, as message keys of messages-templates.ts. */
export type TemplateFieldErrorKey = Extract<
  MessageKey,
  'template_input_empty' | 'template_label_too_long' | 'template_select_options' | 'template_field_repeated' | 'template_number_invalid'
>;

export interface TemplateFieldError {
  /** The field's order (index in `fields`); repeated occurrences name the first one's order. */
  order: number;
  /** The field's name as written ('' for `[]`). */
  name: string;
  key: TemplateFieldErrorKey;
}

export interface ParsedTemplateFields {
  fields: TemplateField[];
  errors: TemplateFieldError[];
}

/** One bracket pair on one line, no brackets inside. */
const BRACKETED = /\[([^[\]\n\r]*)\]/g;

const squeeze = (text: string) => text.normalize('NFC').trim().replace(/\s+/g, ' ');
const sameName = (name: string) => name.toLocaleLowerCase('und');

interface Token {
  name: string;
  type: TemplateFieldType;
  options: string[];
  /** An empty option or no option at all in a select. */
  badOptions: boolean;
}

/** What one bracketed text declares. */
function readToken(inner: string): Token {
  const colon = inner.indexOf(':');
  if (colon >= 0) {
    const name = squeeze(inner.slice(0, colon));
    const parts = inner
      .slice(colon + 1)
      .split('/')
      .map(squeeze);
    // spec part 2 §3: the trailing item is dropped (a trailing '/' ends the list).
    if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
    const badOptions = parts.length === 0 || parts.some((p) => p === '');
    return { name, type: 'select', options: parts.filter((p) => p !== ''), badOptions };
  }
  const trimmed = squeeze(inner);
  if (trimmed.startsWith('#')) return { name: squeeze(trimmed.slice(1)), type: 'number', options: [], badOptions: false };
  return { name: trimmed, type: 'text', options: [], badOptions: false };
}

/** The fields of a template's content, in order, with every rule's errors (spec part 2 §5). */
export function parseTemplateFields(content: string): ParsedTemplateFields {
  const fields: TemplateField[] = [];
  const errors: TemplateFieldError[] = [];
  const byName = new Map<string, TemplateField>();
  for (const match of content.matchAll(BRACKETED)) {
    const token = readToken(match[1] ?? '');
    const key = sameName(token.name);
    const existing = byName.get(key);
    if (existing && token.name !== '') {
      // spec part 2 §5: "content cannot repeat fields".
      if (!errors.some((e) => e.order === existing.order && e.key === 'template_field_repeated')) {
        errors.push({ order: existing.order, name: existing.name, key: 'template_field_repeated' });
      }
      existing.isValidField = false;
      continue;
    }
    const field: TemplateField = {
      name: token.name,
      label: token.name,
      type: token.type,
      options: token.options,
      order: fields.length,
      value: '',
      isValidField: true,
    };
    const fail = (errorKey: TemplateFieldErrorKey) => {
      errors.push({ order: field.order, name: field.name, key: errorKey });
      field.isValidField = false;
    };
    if (token.name === '') fail('template_input_empty');
    else if ([...token.name].length > TEMPLATE_FIELD_LABEL_MAX) fail('template_label_too_long');
    if (token.type === 'select' && token.badOptions) fail('template_select_options');
    fields.push(field);
    if (token.name !== '') byName.set(key, field);
  }
  return { fields, errors };
}

/** What a template's editor and the server check before saving (spec part 2 §5 "Template save"). */
export interface TemplateDraft {
  name: string;
  description: string;
  content: string;
}

export interface TemplateDraftCheck {
  fields: TemplateField[];
  /** Per input: 'name', 'description', 'content' and 'fields.{order}' → message key; {} when valid. */
  errors: Record<string, TemplateFieldErrorKey>;
  valid: boolean;
}

/**
 * Name, description and content required ('The input can't be empty'), then every field rule. When anything
 * fails, the whole save fails with 'Please complete all the required fields to save.' (template_required_fields).
 */
export function checkTemplateDraft(draft: TemplateDraft): TemplateDraftCheck {
  const errors: Record<string, TemplateFieldErrorKey> = {};
  for (const input of ['name', 'description', 'content'] as const) {
    if (draft[input].trim() === '') errors[input] = 'template_input_empty';
  }
  const { fields, errors: fieldErrors } = parseTemplateFields(draft.content);
  for (const error of fieldErrors) errors[`fields.${error.order}`] ??= error.key;
  return { fields, errors, valid: Object.keys(errors).length === 0 };
}

/** A value typed on the apply screen (spec part 2 §5 "Applying a template": non-empty; numbers are numbers). */
export function checkFieldValue(field: Pick<TemplateField, 'type' | 'options'>, value: string | undefined): TemplateFieldErrorKey | null {
  const text = (value ?? '').trim();
  if (text === '') return 'template_input_empty';
  if (field.type === 'number' && !Number.isFinite(Number(text.replace(',', '.')))) return 'template_number_invalid';
  if (field.type === 'select' && !field.options.includes(text)) return 'template_select_options';
  return null;
}

/** Values by name as fields are matched: trimmed, spaces squeezed, without case. */
function valueLookup(values: Readonly<Record<string, string>>): Map<string, string> {
  const lookup = new Map<string, string>();
  for (const [name, value] of Object.entries(values)) lookup.set(sameName(squeeze(name)), value);
  return lookup;
}

/** Every field's problem with `values` (keyed by field name, matched like fillTemplate); {} when Generate may run. */
export function checkFieldValues(fields: readonly TemplateField[], values: Readonly<Record<string, string>>): Record<string, TemplateFieldErrorKey> {
  const problems: Record<string, TemplateFieldErrorKey> = {};
  const lookup = valueLookup(values);
  for (const field of fields) {
    const problem = checkFieldValue(field, lookup.get(sameName(field.name)));
    if (problem) problems[field.name] = problem;
  }
  return problems;
}

/**
 * The prompt: each bracketed field replaced by its value (keyed by the field's name as parsed, e.g. "Words"
 * for `[#Words]`, "Tone" for `[Tone: a/b/]`). A bracket without a value is left as written.
 */
export function fillTemplate(content: string, values: Readonly<Record<string, string>>): string {
  const lookup = valueLookup(values);
  return content.replace(BRACKETED, (whole, inner: string) => {
    const token = readToken(inner);
    const value = token.name === '' ? undefined : lookup.get(sameName(token.name));
    return value === undefined ? whole : value.trim();
  });
}
