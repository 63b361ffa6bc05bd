// The generator form's checks, in the spec's order (part 2 §5: "avatar required ('Please select an avatar'),
// then name ('Please type in a name for your Widget'). Accent colour is free text, default #ff0000"), then
// the accent (a CSS hex colour, contract B) and the allowed websites. One problem is shown at a time.
import { normalizeAccent as normalize, WIDGET_ACCENT_PATTERN, WIDGET_NAME_MAX } from '@pluma/common/widgets';
import { parseOrigins } from './origins';

export interface WidgetFormValues {
  avatarId: string | null;
  name: string;
  accent: string;
  origins: string;
}

export type WidgetField = 'avatar' | 'name' | 'accent' | 'origins' | 'image';

export interface WidgetFormProblem {
  field: WidgetField;
  /** i18n key in the widgets namespace. */
  key: string;
  params?: Record<string, string | number>;
}

/** '#ABC', '#aabbcc' → '#aabbcc'; null when it is not a CSS hex colour (the server's rule). */
export function normalizeAccent(text: string): string | null {
  const value = text.trim();
  return WIDGET_ACCENT_PATTERN.test(value) ? normalize(value) : null;
}

export function firstProblem(values: WidgetFormValues): WidgetFormProblem | null {
  if (!values.avatarId) return { field: 'avatar', key: 'errors.avatarRequired' };
  if (!values.name.trim()) return { field: 'name', key: 'errors.nameRequired' };
  if (values.name.trim().length > WIDGET_NAME_MAX) return { field: 'name', key: 'errors.nameTooLong', params: { max: WIDGET_NAME_MAX } };
  if (!normalizeAccent(values.accent)) return { field: 'accent', key: 'errors.accentInvalid' };
  const { problem } = parseOrigins(values.origins);
  if (problem?.kind === 'invalid') return { field: 'origins', key: 'errors.originInvalid', params: { line: problem.line, value: problem.value } };
  if (problem?.kind === 'tooMany') return { field: 'origins', key: 'errors.originsTooMany', params: { max: problem.max } };
  return null;
}

/**
 * No allowed website (issue 30 item 4): the widget would answer nowhere (deny by default). Not an error —
 * the owner may add websites later — but Generate asks first (WidgetForm).
 */
export const answersNowhere = (values: WidgetFormValues) => parseOrigins(values.origins).origins.length === 0;

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
export const WIDGET_IMAGE_ACCEPT = IMAGE_TYPES.join(',');
export const isWidgetImage = (file: File) => IMAGE_TYPES.includes(file.type);

/** The server's 400 details ('allowed_origins.2', 'accent_color', …) as the form's fields. */
export function fieldOfDetail(key: string): WidgetField | null {
  const head = key.split('.')[0];
  const fields: Record<string, WidgetField> = { avatar_id: 'avatar', name: 'name', accent_color: 'accent', allowed_origins: 'origins', image: 'image' };
  return fields[head] ?? null;
}
