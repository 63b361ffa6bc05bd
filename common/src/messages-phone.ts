// Server texts of phone sign-in (issue 33 item 1). phone_not_found stays in messages.ts (spec part 1 §8).
export const phoneMessagesEn = {
  phone_code_invalid: 'That code is not valid or has expired. Ask for a new one and try again.',
  phone_code_wait: 'A code was just sent to this number. Please wait a moment before asking for another.',
  sms_failed: 'We could not send the text message. Please try again later.',
  sms_code_text: 'Your {app} sign-in code is {code}. It expires in 10 minutes. Do not share it with anyone.',
} as const;

export const phoneMessagesEs: Record<keyof typeof phoneMessagesEn, string> = {
  phone_code_invalid: 'Ese código no es válido o ha caducado. Pide uno nuevo e inténtalo de nuevo.',
  phone_code_wait: 'Acabamos de enviar un código a este número. Espera un momento antes de pedir otro.',
  sms_failed: 'No pudimos enviar el mensaje de texto. Inténtalo de nuevo más tarde.',
  sms_code_text: 'Tu código para entrar en {app} es {code}. Caduca en 10 minutos. No lo compartas con nadie.',
};
