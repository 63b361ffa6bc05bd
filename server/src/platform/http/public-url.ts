import type { Env } from '../../env';

/**
 * Base URL of the links we send by mail (welcome, password reset) and hand to staff: PUBLIC_URL, else
 * http://localhost:PORT. Never the request's Host / X-Forwarded-Host: those are the sender's to choose,
 * and a forged one would put another site's address into a reset email (password-reset poisoning).
 * The app configuration has no site-address setting (common/src/config-keys.ts), so PUBLIC_URL is the
 * only configured one; main.ts warns once at boot when it is missing.
 */
export function publicBaseUrl(ctx: { env: Pick<Env, 'PUBLIC_URL' | 'PORT'> }): string {
  return (ctx.env.PUBLIC_URL ?? `http://localhost:${ctx.env.PORT}`).replace(/\/+$/, '');
}

/** The boot warning when PUBLIC_URL is not set (null when it is). */
export function publicUrlWarning(env: Pick<Env, 'PUBLIC_URL' | 'PORT'>): string | null {
  if (env.PUBLIC_URL) return null;
  return (
    `PUBLIC_URL is not set: links in emails (welcome, password reset) will point to ${publicBaseUrl({ env })}. ` +
    'Set PUBLIC_URL to the address your users open (e.g. https://pluma.example.com); see docs/configuration.md.'
  );
}
