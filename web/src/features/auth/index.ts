// What other features use of auth (features meet through index.ts): the form pieces, rules and calls
// of sign-in and sign-up, which checkout's own sign-in step reuses.
export { isChallenge, login, normalizeEmail, signup, type SignInChallenge } from './auth-api';
export { PasskeysCard } from './PasskeysCard';
export { SecondFactorRequiredPage } from './SecondFactorRequiredPage';
export { TwoFactorStep } from './TwoFactorStep';
export { TwoFactorCard } from './TwoFactorCard';
export { loginErrors, type LoginValues } from './auth-rules';
export { AuthForm, EmailField, PasswordField } from './AuthForm';
export { emptySignupValues, SIGNUP_FIELD_OF, signupErrors, signupPayload, type SignupField, type SignupValues } from './signup-validation';
export { useAuthSubmit, validationDetails } from './use-auth-submit';
// Single sign-on (issue 33 item 4): the staff admins' providers tab and an organization's choice.
export { SsoProvidersPanel } from './sso/SsoProvidersPanel';
export { OrganizationSsoCard } from './sso/OrganizationSsoCard';
