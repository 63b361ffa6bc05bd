// Form rules from the request schemas of common/ — the ones the server checks — so the browser and the
// server agree on what is valid and no form re-writes the rules by hand. A schema's messages are message
// keys of common/src/messages.ts; here they become i18n keys under validation.* (en.json / es.json), kept
// as keys and worded when drawn (screen-text.ts useLocalizedInputProps), so a language switch re-words them.
import { serverMessages, translate, type MessageKey } from '@pluma/common/messages';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
// Types only: the caller hands over the schema, so a screen can load zod when it needs it (login budget).
import type { ZodType } from 'zod';
import { currentLanguage, i18n } from '../i18n';

type Field<Values> = keyof Values & string;
export type FieldErrors<Values> = Partial<Record<Field<Values>, ReactNode>>;

export interface FormRules<Values> {
  /** The common/ request schema of the call the form makes. */
  schema: ZodType;
  /** The request body the values make (default: the values as they are). */
  payload?: (values: Values) => unknown;
  /** Request field → form field, where the names differ (default: the same name). */
  fieldOf?: Partial<Record<string, Field<Values>>>;
  /** i18n key asking for a field left empty, instead of the schema's "invalid" (e.g. "Please enter your email."). */
  required?: Partial<Record<Field<Values>, string>>;
  /** A confirmation field that must repeat another; the request never carries it. */
  confirm?: { field: Field<Values>; of: Field<Values> };
}

/** A Mantine form `validate` function: each field's first problem, as an i18n key (see FieldMessage for params). */
export function formRules<Values>(rules: FormRules<Values>): (values: Values) => FieldErrors<Values> {
  return (values) => {
    const errors: FieldErrors<Values> = {};
    const result = rules.schema.safeParse(rules.payload ? rules.payload(values) : values);
    for (const issue of result.error?.issues ?? []) {
      const name = String(issue.path[0] ?? '');
      const field = rules.fieldOf ? rules.fieldOf[name] : (name as Field<Values>);
      if (field && field in (values as object) && !errors[field]) errors[field] = issueText(issue);
    }
    for (const [field, key] of Object.entries(rules.required ?? {}) as [Field<Values>, string][]) {
      if (!String(values[field] ?? '').trim()) errors[field] = key;
    }
    const { confirm } = rules;
    if (confirm && values[confirm.field] !== values[confirm.of]) errors[confirm.field] = 'validation.password_mismatch';
    return errors;
  };
}

interface IssueView {
  code: string;
  message: string;
  origin?: string;
  minimum?: unknown;
  maximum?: unknown;
}

const isMessageKey = (text: string): text is MessageKey => Object.hasOwn(serverMessages.en, text);

/**
 * The message of one issue: the schema's own message key, else one chosen by the kind of issue (as the
 * server words its 400 details, server/src/platform/http/errors.ts), so zod's built-in English never shows.
 */
export function issueMessage(issue: IssueView): { key: MessageKey; params?: Record<string, string> } {
  if (isMessageKey(issue.message)) return { key: issue.message };
  const numeric = ['number', 'int', 'bigint'].includes(String(issue.origin));
  const plural = ['array', 'set'].includes(String(issue.origin));
  switch (issue.code) {
    case 'too_big':
      return { key: numeric ? 'number_too_big' : plural ? 'too_many_items' : 'text_too_long', params: { max: String(issue.maximum) } };
    case 'too_small':
      if (!numeric && Number(issue.minimum) === 1) return { key: 'field_required' };
      return { key: numeric ? 'number_too_small' : plural ? 'too_few_items' : 'text_too_short', params: { min: String(issue.minimum) } };
    case 'invalid_type':
    case 'invalid_union':
      return { key: 'invalid_type' };
    case 'invalid_value':
      return { key: 'invalid_choice' };
    case 'invalid_format':
      return { key: 'invalid_format' };
    default:
      return { key: 'validation_error' };
  }
}

/** What a form keeps for an issue: the i18n key, or an element that words it with its numbers. */
function issueText(issue: IssueView): ReactNode {
  const { key, params } = issueMessage(issue);
  const id = `validation.${key}`;
  // Every message the forms can meet has its key (i18n.test.ts); any other falls back to the server's words.
  if (!i18n.exists(id)) return translate(currentLanguage(), key, params);
  return params ? <FieldMessage id={id} values={params} /> : id;
}

/** A field message with numbers in it ("at most 200 characters"), re-worded when the language changes. */
export function FieldMessage({ id, values }: { id: string; values: Record<string, string> }) {
  const { t } = useTranslation();
  return <>{t(id, values)}</>;
}
