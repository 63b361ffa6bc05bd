// Password recovery (spec part 1 §2, §8): email and Send Reset Link.
import { Anchor, Button } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api/api-error';
import { useAppConfig } from '../../platform/config/app-config';
import { authPath } from '../../platform/session/paths';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { useLocalizedInputProps } from '../../ui/screen-text';
import { SuccessBanner } from '../../ui/SuccessBanner';
import { normalizeEmail, sendResetPasswordLink } from './auth-api';
import { recoveryErrors } from './auth-rules';
import { AuthForm, EmailField } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { useAuthSubmit } from './use-auth-submit';

export default function RecoveryPage() {
  const { t } = useTranslation();
  const config = useAppConfig();
  const landing = config.on('landing_enabled');
  const { formErrorText, setFormError, submitting, run } = useAuthSubmit();
  const [sent, setSent] = useState(false);
  const form = useForm({ initialValues: { email: '' }, validate: recoveryErrors });
  const inputProps = useLocalizedInputProps(form);

  const submit = form.onSubmit(({ email }) => {
    setSent(false);
    return run(
      async () => {
        await sendResetPasswordLink(normalizeEmail(email));
        setSent(true);
      },
      // spec part 1 §8: 404 → no account with this email; anything else → try again later.
      // A 429 (too many requests) and a 403 (the domain signs in with its organization's SSO) are shown as the server words them.
      (failure) =>
        setFormError(
          failure instanceof ApiError && failure.status === 404
            ? { key: 'recovery.notFound' }
            : failure instanceof ApiError && (failure.status === 429 || failure.status === 403)
              ? { failure }
              : { key: 'recovery.failed' },
        ),
    );
  });

  return (
    <AuthLayout title={t('recovery.title')} subtitle={t('recovery.subtitle')} testId="recovery-page">
      <AuthForm onSubmit={submit} submitting={submitting} testId="recovery-form">
        <ErrorAlert message={formErrorText} onClose={() => setFormError(null)} />
        {/* Kept on screen: the user needs it while switching to their inbox. */}
        <SuccessBanner message={sent ? t('recovery.sent') : null} onClose={() => setSent(false)} autoHideMs={0} />
        <EmailField autoFocus {...inputProps('email')} />
        <Button type="submit" size="md" fullWidth loading={submitting}>
          {t('recovery.submit')}
        </Button>
        <Anchor component={Link} to={authPath('login', landing)} ta="center" size="sm">
          {t('recovery.backToLogin')}
        </Anchor>
      </AuthForm>
    </AuthLayout>
  );
}
