// PayPal emulator: REST API for `@paypal/paypal-server-sdk` and plain fetch, signed webhooks with
// verify-webhook-signature, buyer approval pages, test control.
export { emulatorHttpsAgent, startPayPalEmulator } from './server';
export type { LoggedRequest, PayPalEmulatorOptions, PayPalSdkOptions, RunningPayPalEmulator } from './server';
export { AUTH_ALGO, signedMessage } from './webhooks';
export type { Delivery, DeliveryOptions, ReleaseOrder, WebhookEndpoint } from './webhooks';
export type { CaptureOutcome } from './store';
