// A failed call of the /admin page as words in the current language (ui/call-error-text.ts), with `t` of
// the admin-purchases namespace; a 400's words for one field.
export { callErrorText as adminErrorText, serverFieldError } from '../../ui/call-error-text';
