// Inline sign-in for a signed-out visitor at checkout (spec part 1 §2 Checkout): log in or create an
// account without leaving the page; once signed in the session switches and the payment form appears.
// Reuses the sign-in screens' calls, rules and fields (features/auth).
import { Anchor, Button, Card, NativeSelect, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { SIGNUP_REASONS } from '@pluma/common/constants';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api/api-error';
import { tokenStore } from '../../api/instance';
import { useAppConfig } from '../../platform/config/app-config';
import { authPath } from '../../platform/session/paths';
import { useSession } from '../../platform/session/session-context';
import { currentLanguage } from '../../i18n';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { useLocalizedInputProps } from '../../ui/screen-text';
import { AuthForm, EmailField, emptySignupValues, isChallenge, login, loginErrors, type LoginValues, normalizeEmail, PasswordField, type SignInChallenge, signup, SIGNUP_FIELD_OF, signupErrors, type SignupField, signupPayload, type SignupValues, TwoFactorStep, useAuthSubmit, validationDetails } from '../auth';

type Screen = 'login' | 'signup';

const REASON_KEYS: Record<(typeof SIGNUP_REASONS)[number], string> = {
  Recommendation: 'signup.reasonRecommendation',
  'Facebook Ad': 'signup.reasonFacebook',
  'Instagram Ad': 'signup.reasonInstagram',
  Other: 'signup.reasonOther',
};

export function CheckoutAuth() {
  const { t } = useTranslation('checkout');
  const config = useAppConfig();
  const signupEnabled = config.on('signup_enabled');
  const [screen, setScreen] = useState<Screen>(signupEnabled ? 'signup' : 'login');
  return (
    <Card withBorder radius="lg" padding="xl" data-testid="checkout-auth">
      <Stack gap="md">
        <div>
          <Title order={2} fz="h3">
            {t('auth.heading')}
          </Title>
          <Text size="sm" c="var(--pluma-muted)">
            {t('auth.description')}
          </Text>
        </div>
        {signupEnabled && (
          <SegmentedControl
            fullWidth
            value={screen}
            onChange={(value) => setScreen(value as Screen)}
            data={[
              { value: 'signup', label: t('auth.signupTab') },
              { value: 'login', label: t('auth.loginTab') },
            ]}
            aria-label={t('auth.heading')}
          />
        )}
        {screen === 'login' ? <InlineLogin /> : <InlineSignup />}
      </Stack>
    </Card>
  );
}

function InlineLogin() {
  const { t } = useTranslation();
  const config = useAppConfig();
  const session = useSession();
  const { formErrorText, setFormError, submitting, run, showFailure } = useAuthSubmit();
  const form = useForm<LoginValues>({ initialValues: { email: '', password: '' }, validate: loginErrors });
  const inputProps = useLocalizedInputProps(form);
  // An account with two-factor on gives its code before checking out (issue 33).
  const [challenge, setChallenge] = useState<SignInChallenge | null>(null);

  const submit = form.onSubmit((values) =>
    run(
      async () => {
        const response = await login(normalizeEmail(values.email), values.password);
        if (isChallenge(response)) setChallenge(response);
        else session.signIn(response);
      },
      (error) => {
        const details = validationDetails(error);
        if (error instanceof ApiError && error.status === 401) {
          // spec part 1 §8: wrong email or password → the message, and sign out.
          tokenStore.clear();
          setFormError({ key: 'auth.invalidCredentials' });
        } else if (details) form.setErrors(details);
        else showFailure(error);
      },
    ),
  );

  if (challenge) return <TwoFactorStep challenge={challenge.challenge} methods={challenge.methods} onSignedIn={(response) => session.signIn(response)} onCancel={() => setChallenge(null)} />;

  return (
    <AuthForm onSubmit={submit} submitting={submitting} testId="checkout-login-form">
      <ErrorAlert message={formErrorText} onClose={() => setFormError(null)} />
      <EmailField placeholder={t('auth.emailPlaceholder')} {...inputProps('email')} />
      <PasswordField label={t('auth.password')} autoComplete="current-password" {...inputProps('password')} />
      <Anchor component={Link} to={authPath('recovery', config.on('landing_enabled'))} size="sm">
        {t('auth.forgotPassword')}
      </Anchor>
      <Button type="submit" size="md" fullWidth loading={submitting} loaderProps={{ 'aria-label': t('auth.signingIn') }}>
        {t('auth.loginButton')}
      </Button>
    </AuthForm>
  );
}

function InlineSignup() {
  const { t } = useTranslation();
  const session = useSession();
  const { formErrorText, setFormError, submitting, run, showFailure } = useAuthSubmit();
  const [accountExists, setAccountExists] = useState(false);
  const form = useForm<SignupValues>({ initialValues: emptySignupValues, validate: (values) => signupErrors(values, currentLanguage()) });
  const inputProps = useLocalizedInputProps(form);

  const submit = form.onSubmit((values) => {
    setAccountExists(false);
    return run(
      async () => session.signIn(await signup(signupPayload(values, currentLanguage()))),
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
        } else showFailure(error);
      },
    );
  });

  return (
    <AuthForm onSubmit={submit} submitting={submitting} testId="checkout-signup-form">
      <ErrorAlert message={formErrorText} onClose={() => setFormError(null)} />
      {accountExists && <ErrorAlert message={t('signup.accountExists')} onClose={() => setAccountExists(false)} autoHideMs={0} />}
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <TextInput label={t('signup.name')} autoComplete="given-name" required {...inputProps('name')} />
        <TextInput label={t('signup.lastName')} autoComplete="family-name" required {...inputProps('last_name')} />
      </SimpleGrid>
      <EmailField {...inputProps('email')} />
      <TextInput label={t('signup.phone')} description={t('signup.phoneHint')} type="tel" autoComplete="tel" inputMode="tel" required {...inputProps('phone')} />
      <PasswordField label={t('auth.password')} description={t('signup.passwordHint')} autoComplete="new-password" {...inputProps('password')} />
      <PasswordField label={t('signup.confirmPassword')} autoComplete="new-password" {...inputProps('confirm_password')} />
      <NativeSelect
        label={t('signup.reason')}
        data={[{ value: '', label: t('signup.reasonPlaceholder') }, ...SIGNUP_REASONS.map((reason) => ({ value: reason, label: t(REASON_KEYS[reason]) }))]}
        {...inputProps('reason')}
      />
      {form.values.reason === 'Other' && <TextInput label={t('signup.otherReason')} maxLength={500} {...inputProps('other_reason')} />}
      <Button type="submit" size="md" fullWidth loading={submitting} loaderProps={{ 'aria-label': t('signup.creating') }}>
        {t('signup.submit')}
      </Button>
    </AuthForm>
  );
}
