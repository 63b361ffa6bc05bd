// A list's search box: a text input with the search icon, reporting its text.
import { TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

interface SearchInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'leftSection'> {
  value: string;
  onChange: (text: string) => void;
}

export function SearchInput({ value, onChange, ...props }: SearchInputProps) {
  return <TextInput leftSection={<IconSearch size={16} aria-hidden />} value={value} onChange={(event) => onChange(event.currentTarget.value)} {...props} />;
}
