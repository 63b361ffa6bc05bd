// User workflow values (spec part 2 §3 "User workflow: values (comma-separated key=value string)"): the
// field values of a user workflow stored and sent as one text, `Topic=cats,Tone=formal`. Values typed by users
// may hold commas, '=' signs, backslashes and line breaks, so they are escaped with a backslash
// (docs/decisions.md "Workflows"):
//   \\ a backslash, \, a comma, \= an equals sign, \n a line feed, \r a carriage return.
// The same escaping applies to keys (field names may hold '=' or ','). decode(encode(x)) is x for every
// record of strings; a key given twice keeps its last value.
import { checkFieldValues, type TemplateField, type TemplateFieldErrorKey, type TemplateFieldType } from './template-fields';

const ESCAPES: Record<string, string> = { '\\': '\\\\', ',': '\\,', '=': '\\=', '\n': '\\n', '\r': '\\r' };
const UNESCAPES: Record<string, string> = { '\\': '\\', ',': ',', '=': '=', n: '\n', r: '\r' };

const escapePart = (text: string) => text.replace(/[\\,=\n\r]/g, (c) => ESCAPES[c] ?? c);

/** The values as the spec's comma-separated key=value string, in the record's order. */
export function encodeWorkflowValues(values: Readonly<Record<string, string>>): string {
  return Object.entries(values)
    .map(([key, value]) => `${escapePart(key)}=${escapePart(value)}`)
    .join(',');
}

export class WorkflowValuesFormatError extends Error {
  constructor(readonly position: number) {
    super(`Malformed workflow values at character ${position}`);
  }
}

/**
 * The record a values string holds. Throws WorkflowValuesFormatError on a pair without '=', an unknown escape
 * or a trailing backslash (the string was not written by encodeWorkflowValues). '' is {}.
 */
export function decodeWorkflowValues(encoded: string): Record<string, string> {
  const values: Record<string, string> = {};
  if (encoded === '') return values;
  let key: string | null = null;
  let part = '';
  const endPair = (position: number) => {
    if (key === null) throw new WorkflowValuesFormatError(position);
    values[key] = part;
    key = null;
    part = '';
  };
  for (let i = 0; i < encoded.length; i++) {
    const c = encoded[i] as string;
    if (c === '\\') {
      const next = encoded[i + 1];
      const plain = next === undefined ? undefined : UNESCAPES[next];
      if (plain === undefined) throw new WorkflowValuesFormatError(i);
      part += plain;
      i++;
    } else if (c === '=') {
      if (key !== null) throw new WorkflowValuesFormatError(i);
      key = part;
      part = '';
    } else if (c === ',') {
      endPair(i);
    } else {
      part += c;
    }
  }
  endPair(encoded.length);
  return values;
}

/** decodeWorkflowValues, or null when the text is malformed (for callers that answer a 400). */
export function tryDecodeWorkflowValues(encoded: string): Record<string, string> | null {
  try {
    return decodeWorkflowValues(encoded);
  } catch (err) {
    if (err instanceof WorkflowValuesFormatError) return null;
    throw err;
  }
}

// ---- the fields of a workflow (spec part 2 §5 "Workflow field values: all required; select fields from
// bracketed options separated by slash") ----

const fieldKey = (name: string) => name.normalize('NFC').toLocaleLowerCase('und');
const RESTRICTIVENESS: Record<TemplateFieldType, number> = { text: 0, number: 1, select: 2 };

/**
 * The fields of a workflow: the union of its templates' fields (each parsed by parseTemplateFields), by name
 * without case, in order of first appearance. One value fills a name in every template, so when templates
 * declare a name differently the strictest declaration wins (select over number over text) and two selects
 * keep only the options both offer; a select left with no option is not a valid field (isValidField false:
 * the workflow cannot be saved).
 */
export function mergeWorkflowFields(fieldLists: readonly (readonly TemplateField[])[]): TemplateField[] {
  const merged: TemplateField[] = [];
  const byKey = new Map<string, TemplateField>();
  for (const fields of fieldLists) {
    for (const field of fields) {
      const key = fieldKey(field.name);
      const existing = byKey.get(key);
      if (!existing) {
        const copy = { ...field, options: [...field.options], order: merged.length, value: '' };
        byKey.set(key, copy);
        merged.push(copy);
        continue;
      }
      existing.isValidField &&= field.isValidField;
      if (field.type === 'select' && existing.type === 'select') {
        existing.options = existing.options.filter((o) => field.options.includes(o));
      } else if (RESTRICTIVENESS[field.type] > RESTRICTIVENESS[existing.type]) {
        existing.type = field.type;
        existing.options = [...field.options];
      }
      if (existing.type === 'select' && existing.options.length === 0) existing.isValidField = false;
    }
  }
  return merged;
}

/** Every field's problem with `values`; {} when the values may be saved (all required, selects from their options). */
export function checkWorkflowValues(fields: readonly TemplateField[], values: Readonly<Record<string, string>>): Record<string, TemplateFieldErrorKey> {
  // Values are matched to fields by name without case, like fillTemplate does.
  const byKey = new Map<string, string>();
  for (const [name, value] of Object.entries(values)) byKey.set(fieldKey(name.trim()), value);
  const keyed = Object.fromEntries(fields.map((f) => [f.name, byKey.get(fieldKey(f.name)) ?? '']));
  return checkFieldValues(fields, keyed);
}

/** Only the values of these fields, keyed by each field's own name (drops leftovers of a changed workflow). */
export function pickWorkflowValues(fields: readonly TemplateField[], values: Readonly<Record<string, string>>): Record<string, string> {
  const byKey = new Map<string, string>();
  for (const [name, value] of Object.entries(values)) byKey.set(fieldKey(name.trim()), value);
  const picked: Record<string, string> = {};
  for (const field of fields) {
    const value = byKey.get(fieldKey(field.name));
    if (value !== undefined) picked[field.name] = value.trim();
  }
  return picked;
}
