// The credits feature's public face: what other features may use (eslint.config.js, feature boundaries).
export { accessGate } from './access-gate';
export { assertCanGenerate, candidatePurchasesOf, premiumRequired, purchaseTermsColumns, requireAccess } from './access';
export { holdCtes, holdRequest, releaseExpiredHolds, releaseHold, reserveNewAnswer, reserveWords } from './holds';
export type { HoldRequest } from './holds';
export { chargeCtes, chargeWords, grantWords } from './ledger';
