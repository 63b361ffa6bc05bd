// The second step of a sign-in with two-factor on (issue 33): the code from the authenticator app or a
// recovery code, or "Use a passkey" when the account has one; and "remember this device". Used by the login
// page, the password reset, checkout, and "Confirm it's you" before a factor change (ReconfirmIdentity.tsx).
import { Anchor, Button, Checkbox, Group, Text } from '@mantine/core';
import type { AuthResponse, SecondFactorMethod } from '@pluma/common/users';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { verifyTwoFactor } from './auth-api';
import { AuthForm } from './AuthForm';
import { CodeField } from './CodeField';
import { isPasskeyCancelled, passkeysSupported, passSecondFactorWithPasskey } from './passkeys';
import { rememberDeviceToken } from './trusted-devices';
import { useAuthSubmit } from './use-auth-submit';

export function TwoFactorStep({
  challenge,
  methods = ['totp'],
  onSignedIn,
  onCancel,
  cancelLabel,
}: {
  challenge: string;
  /** The account's second factors (POST /auth/login says which); a TOTP code when not said. */
  methods?: readonly SecondFactorMethod[];
  onSignedIn: (response: AuthResponse) => void;
  onCancel: () => void;
  /** The way back's label: "Back to sign in" unless said. */
  cancelLabel?: string;
}) {
  const { t } = useTranslation();
  const { formErrorText, setFormError, submitting, run, showFailure } = useAuthSubmit();
  const [code, setCode] = useState('');
  const [remember, setRemember] = useState(false);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (code.trim() === '') return;
    void run(async () => {
      const { device_token: deviceToken, ...response } = await verifyTwoFactor(challenge, code.trim(), remember);
      if (deviceToken) rememberDeviceToken(deviceToken);
      onSignedIn(response);
    }, showFailure);
  };

  const usePasskey = () =>
    void run(
      async () => {
        const { device_token: deviceToken, ...response } = await passSecondFactorWithPasskey(challenge, remember);
        if (deviceToken) rememberDeviceToken(deviceToken);
        onSignedIn(response);
      },
      (error) => (isPasskeyCancelled(error) ? setFormError({ key: 'passkeys.cancelled' }) : showFailure(error)),
    );
  const withCode = methods.includes('totp');
  const withPasskey = methods.includes('passkey') && passkeysSupported();

  return (
    <AuthForm onSubmit={submit} submitting={submitting} testId="two-factor-form">
      <ErrorAlert message={formErrorText} onClose={() => setFormError(null)} autoHideMs={0} />
      {withCode && (
        <CodeField label={t('twoFactor.codeLabel')} description={t('twoFactor.codeHint')} value={code} onChange={setCode} />
      )}
      <Checkbox label={t('twoFactor.rememberDevice')} checked={remember} onChange={(event) => setRemember(event.currentTarget.checked)} />
      {withCode && (
        <Button type="submit" size="md" fullWidth loading={submitting}>
          {t('twoFactor.verifyButton')}
        </Button>
      )}
      {!withCode && !withPasskey && <Text size="sm">{t('passkeys.unsupported')}</Text>}
      {withPasskey && (
        <Button type="button" size="md" fullWidth variant={withCode ? 'light' : 'filled'} loading={submitting} onClick={usePasskey} data-testid="two-factor-passkey">
          {t('passkeys.useForSecondStep')}
        </Button>
      )}
      <Group justify="center">
        <Anchor component="button" type="button" size="sm" onClick={onCancel}>
          {cancelLabel ?? t('twoFactor.backToLogin')}
        </Anchor>
      </Group>
    </AuthForm>
  );
}
