// The second step of a sign-in with two-factor on (issue 33): the code from the authenticator app or a
// recovery code, and "remember this device". Used by the login page, the password reset and checkout.
import { Anchor, Button, Checkbox, Group, TextInput } from '@mantine/core';
import type { AuthResponse } from '@pluma/common/users';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { verifyTwoFactor } from './auth-api';
import { AuthForm } from './AuthForm';
import { rememberDeviceToken } from './trusted-devices';
import { useAuthSubmit } from './use-auth-submit';

export function TwoFactorStep({ challenge, onSignedIn, onCancel }: { challenge: string; onSignedIn: (response: AuthResponse) => void; onCancel: () => void }) {
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

  return (
    <AuthForm onSubmit={submit} submitting={submitting} testId="two-factor-form">
      <ErrorAlert message={formErrorText} onClose={() => setFormError(null)} autoHideMs={0} />
      <TextInput
        label={t('twoFactor.codeLabel')}
        description={t('twoFactor.codeHint')}
        autoComplete="one-time-code"
        inputMode="text"
        autoFocus
        required
        value={code}
        onChange={(event) => setCode(event.currentTarget.value)}
      />
      <Checkbox label={t('twoFactor.rememberDevice')} checked={remember} onChange={(event) => setRemember(event.currentTarget.checked)} />
      <Button type="submit" size="md" fullWidth loading={submitting}>
        {t('twoFactor.verifyButton')}
      </Button>
      <Group justify="center">
        <Anchor component="button" type="button" size="sm" onClick={onCancel}>
          {t('twoFactor.backToLogin')}
        </Anchor>
      </Group>
    </AuthForm>
  );
}
