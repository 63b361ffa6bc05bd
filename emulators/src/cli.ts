// Runs the AI emulators standalone: `npx tsx emulators/src/cli.ts [--openai-port 4010] [--anthropic-port 4011]
// [--host 127.0.0.1] [--token-delay-ms 25] [--api-key KEY]`, plus the Stripe emulator with `--stripe-port N`
// [--stripe-webhook URL --stripe-webhook-secret whsec_...], and the PayPal emulator with `--paypal-port N`
// [--paypal-webhook URL --paypal-webhook-id ID], and the SMS (Twilio) emulator with `--sms-port N`. Ctrl-C stops them.
import { parseArgs } from 'node:util';
import { startAnthropicEmulator } from './anthropic';
import { startOpenAiEmulator } from './openai';
import { startPayPalEmulator, type RunningPayPalEmulator } from './paypal';
import { startStripeEmulator, type RunningStripeEmulator } from './stripe';
import { startSmsEmulator, type RunningSmsEmulator } from './sms';

const { values } = parseArgs({
  options: {
    'openai-port': { type: 'string', default: '4010' },
    'anthropic-port': { type: 'string', default: '4011' },
    host: { type: 'string', default: '127.0.0.1' },
    'token-delay-ms': { type: 'string', default: '0' },
    'api-key': { type: 'string' },
    'stripe-port': { type: 'string' },
    'stripe-webhook': { type: 'string' },
    'stripe-webhook-secret': { type: 'string' },
    'paypal-port': { type: 'string' },
    'paypal-webhook': { type: 'string' },
    'paypal-webhook-id': { type: 'string' },
    'sms-port': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log(`Usage: npx tsx emulators/src/cli.ts [options]
  --openai-port N       OpenAI Chat Completions emulator port (default 4010; 0 = any free port)
  --anthropic-port N    Anthropic Messages emulator port (default 4011; 0 = any free port)
  --host HOST           address to listen on (default 127.0.0.1)
  --token-delay-ms N    delay between streamed tokens (default 0)
  --api-key KEY         accept only this API key (default: any non-empty key)
  --stripe-port N       also start the Stripe emulator on this port (0 = any free port)
  --stripe-webhook URL  deliver the Stripe emulator's events to this URL
  --stripe-webhook-secret whsec_...  signing secret for that URL (default: generated and printed)
  --paypal-port N       also start the PayPal emulator on this port (0 = any free port)
  --paypal-webhook URL  deliver the PayPal emulator's events to this URL
  --paypal-webhook-id ID  the webhook id to verify those events with (default: generated and printed)
  --sms-port N          also start the SMS emulator (Twilio's Messages API) on this port (0 = any free port)
Prompt switches: [words:N] [rate:N] [error:STATUS] [disconnect:N] [stream-error:N] [echo]`);
  process.exit(0);
}

function port(name: 'openai-port' | 'anthropic-port' | 'stripe-port' | 'paypal-port' | 'sms-port'): number {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    console.error(`--${name} must be a port number`);
    process.exit(2);
  }
  return value;
}

const common = { host: values.host, tokenDelayMs: Math.max(0, Number(values['token-delay-ms']) || 0), apiKey: values['api-key'] };
const openai = await startOpenAiEmulator({ ...common, port: port('openai-port') });
const anthropic = await startAnthropicEmulator({ ...common, port: port('anthropic-port') });
console.log(`OpenAI-compatible emulator: OPENAI_BASE_URL=${openai.url}`);
console.log(`Anthropic emulator:         ANTHROPIC_BASE_URL=${anthropic.url}`);
let stripe: RunningStripeEmulator | undefined;
if (values['stripe-port'] !== undefined) {
  const webhook = values['stripe-webhook'];
  stripe = await startStripeEmulator({ host: values.host, port: port('stripe-port'), webhooks: webhook ? [{ url: webhook, secret: values['stripe-webhook-secret'] }] : [] });
  console.log(`Stripe emulator:            ${stripe.origin} (SDK: host ${stripe.host}, port ${stripe.port}, protocol http)`);
  console.log(`Stripe.js stand-in:         ${stripe.stripeJsUrl}`);
  for (const endpoint of stripe.webhooks.endpoints.values()) console.log(`Stripe webhooks:            ${endpoint.url} signed with ${endpoint.secret}`);
}
let paypal: RunningPayPalEmulator | undefined;
if (values['paypal-port'] !== undefined) {
  const webhook = values['paypal-webhook'];
  paypal = await startPayPalEmulator({ host: values.host, port: port('paypal-port'), webhooks: webhook ? [{ url: webhook, id: values['paypal-webhook-id'] }] : [] });
  console.log(`PayPal emulator:            ${paypal.origin} (SDK: Sandbox with the emulator's httpsAgent; see emulators/src/paypal/README.md)`);
  for (const endpoint of paypal.webhooks.endpoints.values()) console.log(`PayPal webhooks:            ${endpoint.url} with webhook id ${endpoint.id}`);
}

let sms: RunningSmsEmulator | undefined;
if (values['sms-port'] !== undefined) {
  sms = await startSmsEmulator({ host: values.host, port: port('sms-port') });
  console.log(`SMS (Twilio) emulator:      TWILIO_API_URL=${sms.url} (texts: ${sms.url}/emulator/messages)`);
}

const stop = async () => {
  await Promise.all([openai.close(), anthropic.close(), stripe?.close(), paypal?.close(), sms?.close()]);
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
