// Stripe emulator: REST API for the `stripe` SDK, signed webhooks, test control, Stripe.js stand-in.
export { API_VERSION, startStripeEmulator } from './server';
export type { LoggedRequest, RunningStripeEmulator, StripeEmulatorOptions } from './server';
export { signPayload } from './webhooks';
export type { Delivery, DeliveryOptions, ReleaseOrder, WebhookEndpoint } from './webhooks';
