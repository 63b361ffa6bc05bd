// Server-side texts of single sign-on (issue 33 item 4) in both languages (merged into messages.ts).
export const ssoMessagesEn = {
  sso_name_invalid: 'Give the provider a name (at most 100 characters).',
  sso_issuer_invalid: 'The issuer must be an http:// or https:// address without a query.',
  sso_client_id_invalid: 'Enter the client ID the provider gave you.',
  sso_discovery_failed: "We couldn't read this provider's OpenID configuration. Check the issuer address.",
  sso_required: 'Your organization signs in with {provider}. Use "Continue with {provider}".',
  sso_state_invalid: 'This sign-in link has expired or was already used. Please try again.',
  sso_failed: "The sign-in provider's answer could not be verified. Please try again.",
  sso_email_missing: 'The sign-in provider did not share your email address.',
  sso_email_unverified: 'An account with this email exists, and the provider has not verified the email. Sign in with your password instead.',
  sso_signup_disabled: 'Sign-ups are closed: there is no account for this email yet.',
  sso_wrong_provider: 'Your organization signs in with another provider.',
  sso_code_invalid: 'This sign-in has expired. Please sign in again.',
  sso_domain_missing: 'Set the organization\'s domain before requiring single sign-on.',
} as const;

export const ssoMessagesEs: Record<keyof typeof ssoMessagesEn, string> = {
  sso_name_invalid: 'Ponle un nombre al proveedor (como máximo 100 caracteres).',
  sso_issuer_invalid: 'El emisor debe ser una dirección http:// o https:// sin parámetros.',
  sso_client_id_invalid: 'Introduce el ID de cliente que te dio el proveedor.',
  sso_discovery_failed: 'No pudimos leer la configuración OpenID de este proveedor. Revisa la dirección del emisor.',
  sso_required: 'Tu organización inicia sesión con {provider}. Usa "Continuar con {provider}".',
  sso_state_invalid: 'Este enlace de inicio de sesión ha expirado o ya se usó. Inténtalo de nuevo.',
  sso_failed: 'No se pudo verificar la respuesta del proveedor de inicio de sesión. Inténtalo de nuevo.',
  sso_email_missing: 'El proveedor de inicio de sesión no compartió tu correo electrónico.',
  sso_email_unverified: 'Ya existe una cuenta con este correo y el proveedor no lo ha verificado. Inicia sesión con tu contraseña.',
  sso_signup_disabled: 'Los registros están cerrados: aún no hay una cuenta para este correo.',
  sso_wrong_provider: 'Tu organización inicia sesión con otro proveedor.',
  sso_code_invalid: 'Este inicio de sesión ha expirado. Inicia sesión de nuevo.',
  sso_domain_missing: 'Define el dominio de la organización antes de exigir el inicio de sesión único.',
};
