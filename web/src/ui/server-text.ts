// The server words its messages in the language of the request (common/messages.ts). A text it sent
// earlier is re-worded in the current language when it is one of those messages, so a message still on
// screen follows a language switch.
import type { Lang } from '@pluma/common/constants';
import { serverMessages, translate, type MessageKey } from '@pluma/common/messages';
import { currentLanguage } from '../i18n';

let byText: Map<string, MessageKey> | undefined;

/** The key of a server text (in either language), when it is one of common/messages.ts without parameters. */
export function serverMessageKey(text: string): MessageKey | null {
  if (!byText) {
    byText = new Map();
    for (const messages of Object.values(serverMessages)) {
      for (const [key, value] of Object.entries(messages)) if (!value.includes('{')) byText.set(value, key as MessageKey);
    }
  }
  return byText.get(text) ?? null;
}

/** A server text in `lang`: re-worded when we know it, else as sent. */
export function localizeServerText(text: string, lang: Lang = currentLanguage()): string {
  const key = serverMessageKey(text);
  return key ? translate(lang, key) : text;
}
