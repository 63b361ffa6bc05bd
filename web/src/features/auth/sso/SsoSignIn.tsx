// /login's single sign-on (issue 33 item 4): a "Continue with <provider>" button per enabled provider (a full
// navigation to the server, which redirects to the provider), and the way back: the callback lands on
// /login#sso_code=… (the one-time code, removed from the address and its history entry at once, then
// exchanged for a session or a two-factor challenge) or /login?sso_error=<reason>.
import { Button, Stack, Text } from '@mantine/core';
import { SSO_ERRORS, type SsoErrorKey } from '@pluma/common/rules/sso-errors';
import type { LoginResponse } from '@pluma/common/users';
import { IconKey } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { exchangeSsoCode, ssoStartUrl, useSsoProviders } from './sso-api';

const isSsoError = (value: string | null): value is SsoErrorKey => (SSO_ERRORS as readonly string[]).includes(value ?? '');

/** The code of an SSO callback in the address, removed from it (and from the history entry). */
function takeCodeFromAddress(): string | null {
  const hash = new URLSearchParams(window.location.hash.slice(1));
  const code = hash.get('sso_code');
  if (code) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return code;
}

function takeErrorFromAddress(): SsoErrorKey | null {
  const params = new URLSearchParams(window.location.search);
  const reason = params.get('sso_error');
  if (reason === null) return null;
  params.delete('sso_error');
  const search = params.toString();
  window.history.replaceState(window.history.state, '', window.location.pathname + (search ? `?${search}` : ''));
  return isSsoError(reason) ? reason : 'sso_failed';
}

export function SsoSignIn(props: { onResponse: (response: LoginResponse) => void; onError: (error: { key: string } | { failure: unknown }) => void; onBusy?: (busy: boolean) => void }) {
  const { t } = useTranslation();
  const providers = useSsoProviders();
  const handled = useRef(false);
  const { onResponse, onError, onBusy } = props;

  useEffect(() => {
    // Once per page load (StrictMode runs effects twice; the code is single use).
    if (handled.current) return;
    handled.current = true;
    const reason = takeErrorFromAddress();
    if (reason) onError({ key: `sso.errors.${reason}` });
    const code = takeCodeFromAddress();
    if (!code) return;
    onBusy?.(true);
    exchangeSsoCode(code)
      .then(onResponse, (failure: unknown) => onError({ failure }))
      .finally(() => onBusy?.(false));
  }, [onResponse, onError, onBusy]);

  const list = providers.data ?? [];
  if (list.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="sso-providers">
      {/* Plain text, not a Divider: the sign-in screen loads only the styles of its first components (app/mantine-first.css). */}
      <Text ta="center" size="sm" c="dimmed">
        {t('sso.or')}
      </Text>
      {list.map((provider) => (
        <Button
          key={provider.provider_id}
          component="a"
          href={ssoStartUrl(provider.provider_id)}
          variant="default"
          fullWidth
          leftSection={<IconKey size={16} aria-hidden />}
          data-testid={`sso-provider-${provider.provider_id}`}
        >
          {t('sso.continueWith', { provider: provider.name })}
        </Button>
      ))}
    </Stack>
  );
}
