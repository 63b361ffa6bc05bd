// /reset-password?token= : choose a new password (and confirm it), then the user is signed in.
import { Anchor, Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { PASSWORD_MIN_LENGTH } from '@pluma/common/constants';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { useAppConfig } from '../../app/config/app-config';
import { authPath } from '../../app/session/paths';
import { useSession } from '../../app/session/session-context';
import { describeError } from '../../ui/error-handler';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { resetPassword } from './auth-api';
import { AuthLayout } from './AuthLayout';

export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const config = useAppConfig();
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const landing = config.on('landing_enabled');
  const [error, setError] = useState<string | null>(token ? null : t('reset.missingToken'));
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    initialValues: { password: '', confirm: '' },
    validate: {
      password: (value) => (value.length >= PASSWORD_MIN_LENGTH ? null : t('validation.invalid_password')),
      confirm: (value, values) => (value === values.password ? null : t('validation.password_mismatch')),
    },
  });

  const submit = form.onSubmit(async ({ password }) => {
    setError(null);
    setSubmitting(true);
    try {
      const response = await resetPassword(token, password);
      session.signIn(response);
      navigate('/', { replace: true });
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400 && failure.details.password) {
        form.setErrors({ password: failure.details.password });
      } else {
        const outcome = describeError(failure, t, { showValidation: true });
        if (outcome.kind === 'alert') setError(outcome.message);
      }
    } finally {
      setSubmitting(false);
    }
  });

  return (
    <AuthLayout title={t('reset.title')} subtitle={t('reset.subtitle')} testId="reset-password-page">
      <form onSubmit={submit} noValidate aria-busy={submitting} data-testid="reset-password-form">
        <Stack gap="md">
          <ErrorAlert message={error} onClose={() => setError(null)} autoHideMs={0} />
          <PasswordInput
            label={t('reset.newPassword')}
            description={t('signup.passwordHint')}
            autoComplete="new-password"
            required
            autoFocus
            disabled={!token}
            visibilityToggleButtonProps={{ 'aria-label': t('auth.togglePassword') }}
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label={t('signup.confirmPassword')}
            autoComplete="new-password"
            required
            disabled={!token}
            visibilityToggleButtonProps={{ 'aria-label': t('auth.togglePassword') }}
            {...form.getInputProps('confirm')}
          />
          <Button type="submit" size="md" fullWidth loading={submitting} disabled={!token}>
            {t('reset.submit')}
          </Button>
          <Anchor component={Link} to={authPath('recovery', landing)} ta="center" size="sm">
            {t('reset.requestNew')}
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}
