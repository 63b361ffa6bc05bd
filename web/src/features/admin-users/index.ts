// What other features use of the customers back-office (features meet through index.ts): the customer
// card and its formats, which the organization's user pages share.
export { CustomerCard, CustomerField } from './CustomerCard';
export { formatDateTime, formatMoney, formatNumber } from './customers-view';
