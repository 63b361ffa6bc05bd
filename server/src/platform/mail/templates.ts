// The texts of the messages we send, in the recipient's language (message keys mail_*).
import type { Lang } from '@pluma/common/constants';
import { translate } from '@pluma/common/messages';
import type { MailMessage } from '../../context';

export function welcomeMail(input: { to: string; lang: Lang; name: string; appName: string; url: string }): MailMessage {
  const params = { app: input.appName, name: input.name, url: input.url };
  return {
    to: input.to,
    kind: 'welcome',
    subject: translate(input.lang, 'mail_welcome_subject', params),
    text: translate(input.lang, 'mail_welcome_text', params),
  };
}

export function resetPasswordMail(input: { to: string; lang: Lang; name: string; appName: string; link: string }): MailMessage {
  const params = { app: input.appName, name: input.name, link: input.link };
  return {
    to: input.to,
    kind: 'reset_password',
    subject: translate(input.lang, 'mail_reset_subject', params),
    text: translate(input.lang, 'mail_reset_text', params),
    link: input.link,
  };
}

/**
 * An organization Admin added or invited the recipient (spec part 2 §4): who and which organization, with the
 * link to choose a password (a new account), to sign in and accept (an existing account an Admin invited,
 * issue 30 item 12), or to sign in (an existing account staff added).
 */
export function organizationInviteMail(input: {
  to: string;
  lang: Lang;
  name: string;
  appName: string;
  organization: string;
  inviter: string;
  link: string;
  /** new_account: it chooses its password; invitation: an existing account accepts first; added: staff added it. */
  mode: 'new_account' | 'invitation' | 'added';
}): MailMessage {
  const params = { app: input.appName, name: input.name, organization: input.organization, inviter: input.inviter, link: input.link };
  const invitation = input.mode === 'invitation';
  return {
    to: input.to,
    kind: 'organization_invite',
    subject: translate(input.lang, invitation ? 'mail_organization_invitation_subject' : 'mail_organization_invite_subject', params),
    text: translate(input.lang, invitation ? 'mail_organization_invitation_text' : input.mode === 'new_account' ? 'mail_organization_invite_new_text' : 'mail_organization_invite_existing_text', params),
    link: input.link,
  };
}

/** A payment's receipt (features/purchase-lifecycle/effects.ts): sent once per paid purchase or renewal. */
export function receiptMail(input: { to: string; lang: Lang; name: string; appName: string; product: string; order: string; total: number }): MailMessage {
  const params = { app: input.appName, name: input.name, product: input.product, order: input.order, total: input.total.toFixed(2) };
  return {
    to: input.to,
    kind: 'receipt',
    subject: translate(input.lang, 'mail_receipt_subject', params),
    text: translate(input.lang, 'mail_receipt_text', params),
  };
}

/** A renewal the card could not pay: asks the customer to update their card in Billing (once per invoice). */
export function cardUpdateMail(input: { to: string; lang: Lang; name: string; appName: string; product: string; total: number; url: string }): MailMessage {
  const params = { app: input.appName, name: input.name, product: input.product, total: input.total.toFixed(2), url: input.url };
  return {
    to: input.to,
    kind: 'card_update',
    subject: translate(input.lang, 'mail_card_update_subject', params),
    text: translate(input.lang, 'mail_card_update_text', params),
    link: input.url,
  };
}
