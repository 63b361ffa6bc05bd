// The mobile-phone input of the sign-in screens (phone sign-in, signup): a phone keypad and the browser's
// saved number.
import { TextInput, type TextInputProps } from '@mantine/core';

export function PhoneField(props: TextInputProps) {
  return <TextInput type="tel" autoComplete="tel" inputMode="tel" required {...props} />;
}
