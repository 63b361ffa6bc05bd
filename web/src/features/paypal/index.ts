// What the checkout screen uses of paypal: the PayPal button (features meet through index.ts).
export { PayPalCheckoutButton, type PayPalCheckoutButtonProps } from './PayPalCheckoutButton';
