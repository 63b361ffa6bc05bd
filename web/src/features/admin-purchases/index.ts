// What other features use of the purchases back-office (features meet through index.ts).
export { InvoiceModal } from './InvoiceModal';
