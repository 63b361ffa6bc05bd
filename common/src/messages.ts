// Server-side texts in both languages. Keys are stable; the texts are the spec's where it gives one.
import type { Lang } from './constants';

const en = {
  // spec part 1 §5 (signup)
  invalid_name: 'Name is invalid.',
  invalid_last_name: 'Last name is invalid.',
  invalid_email: 'Email is invalid.',
  invalid_password: 'Password must be 6 characters long.',
  invalid_phone: 'Phone number is invalid.',
  // spec part 1 §8
  email_exists: 'You already have an account, please login.',
  invalid_credentials: 'Email or password is incorrect, please try again.',
  recovery_not_found: 'We did not found any account with this email. Could your account be under a different email?',
  recovery_sent: "We've sent you a password reset email.",
  phone_not_found: "We're sorry, we couldn't find an account with that number.",
  premium_required: 'This is a premium feature. Please, upgrade your account.',
  signup_disabled: 'Sign-ups are currently closed.',
  unauthenticated: 'Please sign in to continue.',
  token_expired: 'Your session has expired, please sign in again.',
  forbidden: 'You do not have permission to do this.',
  not_found: 'Not found.',
  validation_error: 'Some fields are invalid.',
  rate_limited: 'Too many attempts, please wait a moment and try again.',
  internal_error: 'Something went wrong on our side, please try again later.',
  reset_token_invalid: 'This password reset link is invalid or has expired.',
  sign_in_token_invalid: 'This sign-in link is invalid or has expired.',
  payload_too_large: 'The file is too large.',
  unsupported_file: 'This type of file is not allowed.',
  file_required: 'Please choose a file.',
  outbound_url_refused: 'This URL is not allowed.',
  config_key_unknown: 'Unknown setting: {key}.',
  config_value_invalid: 'Invalid value for {key}.',
  // mail
  mail_welcome_subject: 'Welcome to {app}',
  mail_welcome_text: 'Hello {name},\n\nYour {app} account is ready. Sign in at {url}.',
  mail_reset_subject: 'Reset your {app} password',
  mail_reset_text: 'Hello {name},\n\nTo choose a new password open this link (valid for 1 hour):\n{link}\n\nIf you did not ask for this, ignore this email.',
} as const;

export type MessageKey = keyof typeof en;

const es: Record<MessageKey, string> = {
  invalid_name: 'El nombre no es válido.',
  invalid_last_name: 'El apellido no es válido.',
  invalid_email: 'El correo electrónico no es válido.',
  invalid_password: 'La contraseña debe tener al menos 6 caracteres.',
  invalid_phone: 'El número de teléfono no es válido.',
  email_exists: 'Ya tienes una cuenta, por favor inicia sesión.',
  invalid_credentials: 'El correo o la contraseña son incorrectos, inténtalo de nuevo.',
  recovery_not_found: 'No encontramos ninguna cuenta con este correo. ¿Podría estar tu cuenta con otro correo?',
  recovery_sent: 'Te hemos enviado un correo para restablecer tu contraseña.',
  phone_not_found: 'Lo sentimos, no encontramos una cuenta con ese número.',
  premium_required: 'Esta es una función premium. Por favor, mejora tu cuenta.',
  signup_disabled: 'Los registros están cerrados por ahora.',
  unauthenticated: 'Inicia sesión para continuar.',
  token_expired: 'Tu sesión ha expirado, vuelve a iniciar sesión.',
  forbidden: 'No tienes permiso para hacer esto.',
  not_found: 'No encontrado.',
  validation_error: 'Algunos campos no son válidos.',
  rate_limited: 'Demasiados intentos, espera un momento e inténtalo de nuevo.',
  internal_error: 'Algo salió mal de nuestro lado, inténtalo más tarde.',
  reset_token_invalid: 'Este enlace para restablecer la contraseña no es válido o ha expirado.',
  sign_in_token_invalid: 'Este enlace de acceso no es válido o ha expirado.',
  payload_too_large: 'El archivo es demasiado grande.',
  unsupported_file: 'Este tipo de archivo no está permitido.',
  file_required: 'Por favor elige un archivo.',
  outbound_url_refused: 'Esta URL no está permitida.',
  config_key_unknown: 'Ajuste desconocido: {key}.',
  config_value_invalid: 'Valor no válido para {key}.',
  mail_welcome_subject: 'Bienvenido a {app}',
  mail_welcome_text: 'Hola {name},\n\nTu cuenta de {app} está lista. Inicia sesión en {url}.',
  mail_reset_subject: 'Restablece tu contraseña de {app}',
  mail_reset_text: 'Hola {name},\n\nPara elegir una nueva contraseña abre este enlace (válido por 1 hora):\n{link}\n\nSi no lo pediste, ignora este correo.',
};

export const serverMessages: Record<Lang, Record<MessageKey, string>> = { en, es };

/** Text of a message in a language, with {placeholders} filled. */
export function translate(lang: Lang, key: MessageKey, params: Record<string, string | number> = {}): string {
  const template = serverMessages[lang]?.[key] ?? en[key];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}
