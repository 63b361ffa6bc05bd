// In-app password change (DESIGN.md §4 Auth, PUT /api/auth/password): current password, new password
// and its confirmation. The caller stays signed in; the server signs out every other device.
import { Button, Card, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { serverMessages } from '@pluma/common/messages';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { showSuccess } from '../../ui/alerts';
import { screenText, useLocalizedInputProps, type ScreenText } from '../../ui/screen-text';
import { changePassword } from './profile-api';
import { emptyPasswordChange, passwordChangeErrors, type PasswordChangeValues } from './password-change';

export function ChangePasswordCard() {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<ScreenText | null>(null);
  const form = useForm<PasswordChangeValues>({ initialValues: emptyPasswordChange, validate: passwordChangeErrors });
  const inputProps = useLocalizedInputProps(form);
  const toggle = { 'aria-label': t('auth.togglePassword') };

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    setSaving(true);
    try {
      await changePassword({ current_password: values.current_password, password: values.password });
      form.reset();
      showSuccess(t('profile.passwordChanged'));
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        // A wrong current password is a 400 without details; its text belongs under that field.
        const details = error.details;
        if (Object.keys(details).length > 0) form.setErrors(details);
        else form.setErrors({ current_password: error.body?.message || serverMessages.en.current_password_invalid });
      } else {
        setFailure({ failure: error, options: { showValidation: true } });
      }
    } finally {
      setSaving(false);
    }
  });

  return (
    <Card withBorder radius="lg" padding="xl" id="password" data-testid="password-card">
      <form onSubmit={submit} noValidate aria-busy={saving} data-testid="password-form">
        <Stack gap="md">
          <div>
            <Text fw={600}>{t('profile.passwordTitle')}</Text>
            <Text size="sm" c="var(--pluma-muted)">
              {t('profile.passwordHint')}
            </Text>
          </div>
          <ErrorAlert message={screenText(failure, t)} onClose={() => setFailure(null)} autoHideMs={0} />
          <PasswordInput
            label={t('profile.currentPassword')}
            autoComplete="current-password"
            required
            visibilityToggleButtonProps={toggle}
            {...inputProps('current_password')}
          />
          <PasswordInput
            label={t('profile.newPassword')}
            description={t('signup.passwordHint')}
            autoComplete="new-password"
            required
            visibilityToggleButtonProps={toggle}
            {...inputProps('password')}
          />
          <PasswordInput
            label={t('signup.confirmPassword')}
            autoComplete="new-password"
            required
            visibilityToggleButtonProps={toggle}
            {...inputProps('confirm')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={saving}>
              {t('profile.passwordSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
