// A payment or AI key of an organization, masked like the admin settings (spec part 2 §2; part 1 §9: the
// last 4 characters): the stored value never comes to the browser, so the field shows the server's masked
// form until Replace, and then takes a new value ('' removes the key). Keep current goes back.
import { Button, Group, PasswordInput, TextInput } from '@mantine/core';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface SecretInputProps {
  name: string;
  label: string;
  /** The server's masked value ('' when none is stored). */
  masked: string;
  /** null while the stored value is kept. */
  value: string | null;
  onChange: (value: string | null) => void;
  error?: ReactNode;
}

export function SecretInput({ name, label, masked, value, onChange, error }: SecretInputProps) {
  const { t } = useTranslation('organizations');
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      {value === null ? (
        <TextInput
          style={{ flex: 1 }}
          label={label}
          value={masked || t('settings.secretUnset')}
          readOnly
          leftSection={<IconLock size={16} aria-hidden />}
          error={error}
          data-testid={`secret-${name}`}
        />
      ) : (
        <PasswordInput
          style={{ flex: 1 }}
          label={label}
          description={t('settings.secretHelp')}
          value={value}
          onChange={(e) => onChange(e.currentTarget.value)}
          autoComplete="off"
          error={error}
          autoFocus
          data-testid={`secret-${name}`}
        />
      )}
      {value === null ? (
        <Button variant="default" leftSection={<IconLockOpen size={16} aria-hidden />} onClick={() => onChange('')} data-testid={`replace-${name}`}>
          {t('settings.replace')}
        </Button>
      ) : (
        <Button variant="default" onClick={() => onChange(null)} data-testid={`keep-${name}`}>
          {t('settings.keep')}
        </Button>
      )}
    </Group>
  );
}
