// A failed call as words in the current language, for screens that show it in place (a modal's alert, a
// list's failure): the server's own message (one of common/messages.ts, re-worded on a language switch),
// else the namespace's own words for "unreachable" and "something went wrong".
import type { TFunction } from 'i18next';
import { ApiError } from '../api/api-error';
import { localizeServerText } from './server-text';

/** `t` of a namespace that has errors.network and errors.generic. */
export function callErrorText(error: unknown, t: TFunction): string {
  if (error instanceof ApiError) {
    if (error.isNetworkError) return t('errors.network');
    if (error.body?.message) return localizeServerText(error.body.message);
  }
  return t('errors.generic');
}

/** A 400's message for one field, if the server named it. */
export function serverFieldError(error: unknown, field: string): string | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const text = error.details[field];
  return text ? localizeServerText(text) : null;
}
