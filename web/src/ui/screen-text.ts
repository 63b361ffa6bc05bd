// Messages that stay on screen (form errors, field errors) are kept as what they *are* — a web i18n key,
// a failed call, or a text the server sent — and worded when drawn, so switching the language re-words
// them instead of leaving the old language on screen.
import type { UseFormReturnType } from '@mantine/form';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../i18n';
import { describeError, type ErrorHandlingOptions } from './error-handler';
import { localizeServerText } from './server-text';

export type ScreenText =
  /** A key of en.json / es.json. */
  | { key: string; params?: Record<string, unknown> }
  /** A failed call, worded by the shared error handler. */
  | { failure: unknown; options?: ErrorHandlingOptions }
  /** A text the server sent (already in the language of that moment). */
  | { text: string };

export function screenText(value: ScreenText | null | undefined, t: TFunction): string | null {
  if (!value) return null;
  if ('key' in value) return t(value.key, value.params);
  if ('text' in value) return localizeServerText(value.text);
  const outcome = describeError(value.failure, t, value.options);
  return outcome.kind === 'alert' ? outcome.message : null;
}

/**
 * A form field's error as drawn: forms keep i18n keys (from their rules) or server texts (from a 400's
 * details); either is worded in the current language.
 */
export function fieldErrorText(error: unknown, t: TFunction): unknown {
  if (typeof error !== 'string' || !error) return error;
  return i18n.exists(error) ? t(error) : localizeServerText(error);
}

/** `form.getInputProps` with the field's error worded in the current language (re-worded on a switch). */
export function useLocalizedInputProps<Values>(form: UseFormReturnType<Values>) {
  const { t } = useTranslation();
  return (field: Parameters<UseFormReturnType<Values>['getInputProps']>[0]) => {
    const props = form.getInputProps(field);
    return { ...props, error: fieldErrorText(props.error, t) as ReactNode };
  };
}
