// The widget's own texts, English and Spanish (issue 15 item 4). The widget runs on other people's sites
// without the app's i18next bundle, so it carries this small dictionary; i18n.test.ts keeps the two in step.
// The server's refusals come with their own message in the request's language; these are the fallbacks.

export type WidgetLang = 'en' | 'es';

export const widgetTextsEn = {
  openChat: 'Open chat with {name}',
  closeChat: 'Close chat',
  newChat: 'New chat',
  messageLabel: 'Message',
  placeholder: 'Type your message',
  send: 'Send',
  stop: 'Stop',
  stopped: 'Stopped',
  greeting: 'Hi! Send a message to start chatting with {name}.',
  answering: '{name} is answering…',
  loading: 'Loading…',
  defaultName: 'Chat',
  unavailable: 'This chat is not available right now.',
  limitReached: 'This chat has reached its limit for now. Please try again later.',
  rateLimited: 'Too many messages. Please wait a moment and try again.',
  failed: 'Something went wrong. Please try again.',
  you: 'You',
} as const;

export type WidgetTextKey = keyof typeof widgetTextsEn;

export const widgetTextsEs: Record<WidgetTextKey, string> = {
  openChat: 'Abrir chat con {name}',
  closeChat: 'Cerrar chat',
  newChat: 'Nuevo chat',
  messageLabel: 'Mensaje',
  placeholder: 'Escribe tu mensaje',
  send: 'Enviar',
  stop: 'Detener',
  stopped: 'Detenido',
  greeting: '¡Hola! Envía un mensaje para empezar a chatear con {name}.',
  answering: '{name} está respondiendo…',
  loading: 'Cargando…',
  defaultName: 'Chat',
  unavailable: 'Este chat no está disponible en este momento.',
  limitReached: 'Este chat alcanzó su límite por ahora. Por favor intenta más tarde.',
  rateLimited: 'Demasiados mensajes. Espera un momento y vuelve a intentarlo.',
  failed: 'Algo salió mal. Por favor, inténtalo de nuevo.',
  you: 'Tú',
};

const DICTIONARIES: Record<WidgetLang, Record<WidgetTextKey, string>> = { en: widgetTextsEn, es: widgetTextsEs };

/** data-lang when it names a language we have, else the browser's language, else English. */
export function pickLang(dataLang: string | null | undefined, navigatorLanguage: string | undefined): WidgetLang {
  for (const candidate of [dataLang, navigatorLanguage]) {
    const base = candidate?.trim().toLowerCase().slice(0, 2);
    if (base === 'en' || base === 'es') return base;
  }
  return 'en';
}

export type Translate = (key: WidgetTextKey, values?: Record<string, string>) => string;

export function translator(lang: WidgetLang): Translate {
  const texts = DICTIONARIES[lang];
  return (key, values = {}) => texts[key].replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
