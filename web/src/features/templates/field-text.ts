// The field parser's problems (common/rules/template-fields.ts) are message keys of common/messages.ts —
// the spec's own texts ('The input can't be empty', 'The input max length is 254 characters', 'Select type
// must have at least one option', 'Please complete all the required fields to save.'): worded here in the
// interface language, so the editor, the apply screen and the server say the same words.
import { translate, type MessageKey } from '@pluma/common/messages';
import { useTranslation } from 'react-i18next';
import { isLang } from '../../i18n';

export function useMessageText() {
  const { i18n } = useTranslation();
  const lang = isLang(i18n.language) ? i18n.language : 'en';
  return (key: MessageKey) => translate(lang, key);
}

/** 'tone of voice' → 'Tone of voice' (spec part 2 §2: inputs with a capitalised label). */
export const capitalise = (label: string) => (label ? label.charAt(0).toLocaleUpperCase() + label.slice(1) : label);
