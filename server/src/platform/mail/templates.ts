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
