// The one-time-code input of the sign-in screens (the SMS code of phone sign-in, the authenticator or
// recovery code of the two-factor step): the browser may fill it from the message (one-time-code).
import { TextInput, type TextInputProps } from '@mantine/core';

export interface CodeFieldProps extends Omit<TextInputProps, 'value' | 'onChange'> {
  value: string;
  onChange: (value: string) => void;
  /** A code of this many digits only (a numeric keypad); without it, any text (recovery codes have letters). */
  digits?: number;
}

export function CodeField({ value, onChange, digits, ...props }: CodeFieldProps) {
  const numeric = digits === undefined ? { inputMode: 'text' as const } : { inputMode: 'numeric' as const, pattern: '[0-9]*', maxLength: digits };
  return (
    <TextInput
      autoComplete="one-time-code"
      autoFocus
      required
      {...numeric}
      {...props}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
