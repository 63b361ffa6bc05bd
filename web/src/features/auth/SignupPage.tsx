// Signup (spec part 1 §2, §5, §8): name, last name, email, password + confirmation, mobile phone and
// 'how did you find us' (Other shows a free-text reason).
import { Anchor, Button, NativeSelect, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { SIGNUP_REASONS } from '@pluma/common/constants';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api/api-error';
import { useAppConfig } from '../../platform/config/app-config';
import { authPath } from '../../platform/session/paths';
import { useSession } from '../../platform/session/session-context';
import { currentLanguage } from '../../i18n';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { useLocalizedInputProps } from '../../ui/screen-text';
import { signup } from './auth-api';
import { AuthForm, EmailField, PasswordField } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { PhoneField } from './PhoneField';
import { emptySignupValues, SIGNUP_FIELD_OF, signupErrors, signupPayload, type SignupField, type SignupValues } from './signup-validation';
import { useAuthSubmit, validationDetails } from './use-auth-submit';

const REASON_KEYS: Record<(typeof SIGNUP_REASONS)[number], string> = {
  Recommendation: 'signup.reasonRecommendation',
  'Facebook Ad': 'signup.reasonFacebook',
  'Instagram Ad': 'signup.reasonInstagram',
  Other: 'signup.reasonOther',
};

export default function SignupPage() {
  const { t } = useTranslation();
  const config = useAppConfig();
  const session = useSession();
  const landing = config.on('landing_enabled');
  const { formErrorText, setFormError, submitting, run, showFailure } = useAuthSubmit();
  const [accountExists, setAccountExists] = useState(false);
  const form = useForm<SignupValues>({
    initialValues: emptySignupValues,
    // Keys, worded when drawn (inputProps), so a language switch re-words errors on screen.
    validate: (values) => signupErrors(values, currentLanguage()),
  });
  const inputProps = useLocalizedInputProps(form);

  const submit = form.onSubmit((values) => {
    setAccountExists(false);
    return run(
      async () => {
        const response = await signup(signupPayload(values, currentLanguage()));
        session.signIn(response);
      },
      (error) => {
        const details = validationDetails(error);
        if (error instanceof ApiError && (error.status === 412 || error.errorId === 'email_exists')) {
          // spec part 1 §8: signup conflict.
          setAccountExists(true);
        } else if (details) {
          const fieldErrors: Partial<Record<SignupField, string>> = {};
          for (const [field, text] of Object.entries(details)) {
            const target = SIGNUP_FIELD_OF[field];
            if (target) fieldErrors[target] = text;
            else setFormError({ text });
          }
          form.setErrors(fieldErrors);
        } else {
          // spec part 1 §8: other signup errors are shown as text.
          showFailure(error);
        }
      },
    );
  });

  return (
    <AuthLayout title={t('signup.title')} subtitle={t('signup.subtitle', { app: config.get('app_name') })} testId="signup-page">
      <AuthForm onSubmit={submit} submitting={submitting} testId="signup-form">
        <ErrorAlert message={formErrorText} onClose={() => setFormError(null)} />
        {accountExists && (
          <ErrorAlert
            message={t('signup.accountExists')}
            onClose={() => setAccountExists(false)}
            autoHideMs={0}
            data-testid="account-exists"
          />
        )}
        {accountExists && (
          <Anchor component={Link} to={authPath('login', landing)} fw={600}>
            {t('signup.goToLogin')}
          </Anchor>
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput label={t('signup.name')} autoComplete="given-name" required autoFocus {...inputProps('name')} />
          <TextInput label={t('signup.lastName')} autoComplete="family-name" required {...inputProps('last_name')} />
        </SimpleGrid>
        <EmailField {...inputProps('email')} />
        <PhoneField label={t('signup.phone')} description={t('signup.phoneHint')} {...inputProps('phone')} />
        <PasswordField
          label={t('auth.password')}
          description={t('signup.passwordHint')}
          autoComplete="new-password"
          {...inputProps('password')}
        />
        <PasswordField label={t('signup.confirmPassword')} autoComplete="new-password" {...inputProps('confirm_password')} />
        <NativeSelect
          label={t('signup.reason')}
          data={[
            { value: '', label: t('signup.reasonPlaceholder') },
            ...SIGNUP_REASONS.map((reason) => ({ value: reason, label: t(REASON_KEYS[reason]) })),
          ]}
          {...inputProps('reason')}
        />
        {form.values.reason === 'Other' && (
          <TextInput label={t('signup.otherReason')} maxLength={500} {...inputProps('other_reason')} />
        )}
        <Button type="submit" size="md" fullWidth loading={submitting} loaderProps={{ 'aria-label': t('signup.creating') }}>
          {t('signup.submit')}
        </Button>
        <Text ta="center" size="sm">
          {t('signup.haveAccount')}{' '}
          <Anchor component={Link} to={authPath('login', landing)} fw={600}>
            {t('auth.loginButton')}
          </Anchor>
        </Text>
      </AuthForm>
    </AuthLayout>
  );
}
