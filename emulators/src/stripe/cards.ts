// Stripe's documented test cards, by number and by the `pm_card_*` / `tok_*` shortcuts the SDK
// accepts in place of a PaymentMethod id. Only the behaviours Pluma meets are modelled.

export type ThreeDSecure =
  /** No authentication asked. */
  | 'none'
  /** Asked on-session until the card has been set up (a succeeded SetupIntent or a PaymentIntent with
   *  setup_future_usage); later off-session charges pass. 4000002500003155. */
  | 'until-setup'
  /** Asked on every charge; off-session charges fail with authentication_required. 4000002760003184,
   *  4000000000003220. */
  | 'always';

export interface TestCard {
  number: string;
  brand: 'visa' | 'mastercard' | 'amex' | 'discover' | 'unknown';
  threeDSecure: ThreeDSecure;
  /** Charges are declined with this decline code. */
  declineCode?: 'generic_decline' | 'insufficient_funds';
  /** Attaching to a customer (or setting the card up) is declined too. */
  declinesOnAttach?: boolean;
}

const CARDS: TestCard[] = [
  { number: '4242424242424242', brand: 'visa', threeDSecure: 'none' },
  { number: '4000056655665556', brand: 'visa', threeDSecure: 'none' },
  { number: '5555555555554444', brand: 'mastercard', threeDSecure: 'none' },
  { number: '378282246310005', brand: 'amex', threeDSecure: 'none' },
  { number: '4000002500003155', brand: 'visa', threeDSecure: 'until-setup' },
  { number: '4000002760003184', brand: 'visa', threeDSecure: 'always' },
  { number: '4000000000003220', brand: 'visa', threeDSecure: 'always' },
  { number: '4000000000000002', brand: 'visa', threeDSecure: 'none', declineCode: 'generic_decline', declinesOnAttach: true },
  { number: '4000000000009995', brand: 'visa', threeDSecure: 'none', declineCode: 'insufficient_funds', declinesOnAttach: true },
  { number: '4000000000000341', brand: 'visa', threeDSecure: 'none', declineCode: 'generic_decline' },
];

/** `pm_card_*` shortcuts (and their `tok_*` twins) → card number. */
const SHORTCUTS: Record<string, string> = {
  visa: '4242424242424242',
  visa_debit: '4000056655665556',
  mastercard: '5555555555554444',
  amex: '378282246310005',
  authenticationRequiredOnSetup: '4000002500003155',
  authenticationRequired: '4000002760003184',
  threeDSecure2Required: '4000000000003220',
  chargeDeclined: '4000000000000002',
  visa_chargeDeclined: '4000000000000002',
  chargeDeclinedInsufficientFunds: '4000000000009995',
  visa_chargeDeclinedInsufficientFunds: '4000000000009995',
  chargeCustomerFail: '4000000000000341',
  visa_chargeCustomerFail: '4000000000000341',
};

/** The card number behind `pm_card_visa` / `tok_visa`, or undefined. */
export function shortcutNumber(id: string): string | undefined {
  const match = /^(?:pm_card_|tok_)(.+)$/.exec(id);
  return match ? SHORTCUTS[match[1]] : undefined;
}

/** Behaviour of a card number; numbers outside the table behave like 4242 when they pass Luhn. */
export function cardFor(number: string): TestCard | undefined {
  const digits = number.replace(/[\s-]/g, '');
  const known = CARDS.find((c) => c.number === digits);
  if (known) return known;
  if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) return undefined;
  return { number: digits, brand: brandOf(digits), threeDSecure: 'none' };
}

function brandOf(digits: string): TestCard['brand'] {
  if (digits.startsWith('4')) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^6(011|5)/.test(digits)) return 'discover';
  return 'unknown';
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
