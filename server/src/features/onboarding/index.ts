// The onboarding feature's public face (eslint.config.js, feature boundaries).
export { onboardingRoutes } from './routes';
