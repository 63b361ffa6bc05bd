// Password recovery (spec part 1 §2, §8): email and Send Reset Link.
import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api/api-error';
import { useAppConfig } from '../../app/config/app-config';
import { authPath } from '../../app/session/paths';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { SuccessBanner } from '../../ui/SuccessBanner';
import { looksLikeEmail, normalizeEmail, sendResetPasswordLink } from './auth-api';
import { AuthLayout } from './AuthLayout';

export default function RecoveryPage() {
  const { t } = useTranslation();
  const config = useAppConfig();
  const landing = config.on('landing_enabled');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm({
    initialValues: { email: '' },
    validate: {
      email: (value) => (!value.trim() ? t('auth.emailRequired') : looksLikeEmail(value) ? null : t('validation.invalid_email')),
    },
  });

  const submit = form.onSubmit(async ({ email }) => {
    setError(null);
    setSent(false);
    setSubmitting(true);
    try {
      await sendResetPasswordLink(normalizeEmail(email));
      setSent(true);
    } catch (failure) {
      // spec part 1 §8: 404 → no account with this email; anything else → try again later.
      setError(failure instanceof ApiError && failure.status === 404 ? t('recovery.notFound') : t('recovery.failed'));
    } finally {
      setSubmitting(false);
    }
  });

  return (
    <AuthLayout title={t('recovery.title')} subtitle={t('recovery.subtitle')} testId="recovery-page">
      <form onSubmit={submit} noValidate aria-busy={submitting} data-testid="recovery-form">
        <Stack gap="md">
          <ErrorAlert message={error} onClose={() => setError(null)} />
          {/* Kept on screen: the user needs it while switching to their inbox. */}
          <SuccessBanner message={sent ? t('recovery.sent') : null} onClose={() => setSent(false)} autoHideMs={0} />
          <TextInput
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            autoFocus
            {...form.getInputProps('email')}
          />
          <Button type="submit" size="md" fullWidth loading={submitting}>
            {t('recovery.submit')}
          </Button>
          <Anchor component={Link} to={authPath('login', landing)} ta="center" size="sm">
            {t('recovery.backToLogin')}
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}
