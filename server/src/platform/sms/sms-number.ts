// The number a text message goes to, in E.164 as Twilio wants it. Stored numbers keep a '+' when the user
// typed one (users/phone.ts); a 10-digit number without it is taken as Mexican (+52), the country the spec
// assumes for its WhatsApp links (spec part 1 §2 "Admin customers table": country prefix 52).
export const DEFAULT_COUNTRY_CODE = '52';

export function smsNumber(stored: string): string {
  const digits = stored.replace(/\D/g, '');
  if (stored.trim().startsWith('+')) return `+${digits}`;
  return digits.length === 10 ? `+${DEFAULT_COUNTRY_CODE}${digits}` : `+${digits}`;
}
