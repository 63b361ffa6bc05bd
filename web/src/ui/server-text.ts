// The server words its messages in the language of the request (common/messages.ts). A text it sent
// earlier is re-worded in the current language when it is one of those messages, so a message still on
// screen follows a language switch.
// The table of those messages (both languages, ~12 KB brotli) is not part of the first download: it loads
// once the first screen is painted (bench/bundle-size.mjs), long before a server text can be on screen and
// a language switch re-word it. Until then a text shows as sent, which is already the current language.
import type { Lang } from '@pluma/common/constants';
import type { MessageKey } from '@pluma/common/messages';
import { currentLanguage } from '../i18n';
import { afterFirstPaint } from '../platform/first-paint';

type Messages = typeof import('@pluma/common/messages');

let messages: Messages | undefined;
let loading: Promise<Messages> | undefined;
let byText: Map<string, MessageKey> | undefined;

/** Loads the server's messages (once); the re-wording below applies from then on. */
export function loadServerMessages(): Promise<Messages> {
  loading ??= import('@pluma/common/messages').then((module) => (messages = module));
  return loading;
}
void afterFirstPaint().then(() => loadServerMessages().catch(() => undefined));

/** The key of a server text (in either language), when it is one of common/messages.ts without parameters. */
export function serverMessageKey(text: string): MessageKey | null {
  if (!messages) return null;
  if (!byText) {
    byText = new Map();
    for (const table of Object.values(messages.serverMessages)) {
      for (const [key, value] of Object.entries(table)) if (!value.includes('{')) byText.set(value, key as MessageKey);
    }
  }
  return byText.get(text) ?? null;
}

/** A server text in `lang`: re-worded when we know it, else as sent. */
export function localizeServerText(text: string, lang: Lang = currentLanguage()): string {
  const key = serverMessageKey(text);
  return key && messages ? messages.translate(lang, key) : text;
}
