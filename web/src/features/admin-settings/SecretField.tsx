// A sensitive setting (spec part 1 §4 "Settings editing"): locked, showing only the last 4 characters,
// until an admin confirms 'Are you sure to edit this setting?'; then the full value is fetched (an audited
// call) and the field unlocks, and it locks again after 10 seconds without input (§9).
import { Button, Group, Text, TextInput } from '@mantine/core';
import { SETTINGS_UNLOCK_TIMEOUT_MS } from '@pluma/common/constants';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../ui/Modal';
import { lockedView } from './settings-form';

interface SecretFieldProps {
  name: string;
  label: string;
  description?: string;
  value: string;
  unlocked: boolean;
  /** Only admins see the Edit control (spec part 1 §6). */
  canEdit: boolean;
  /** Fetches the full value (reveal) and unlocks; rejects when the server refuses. */
  onUnlock: () => Promise<void>;
  onLock: () => void;
  onChange: (value: string) => void;
  error?: ReactNode;
  /** Extra controls (the key's Test). */
  actions?: ReactNode;
}

export function SecretField({ name, label, description, value, unlocked, canEdit, onUnlock, onLock, onChange, error, actions }: SecretFieldProps) {
  const { t } = useTranslation('admin-settings');
  const [confirming, setConfirming] = useState(false);
  const [revealing, setRevealing] = useState(false);

  // Re-lock after 10 s without input: every change of the value (and only that) restarts the wait.
  const lockNow = useEffectEvent(onLock);
  useEffect(() => {
    if (!unlocked) return;
    const timer = setTimeout(lockNow, SETTINGS_UNLOCK_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [unlocked, value]);

  const confirm = async () => {
    setRevealing(true);
    try {
      await onUnlock();
      setConfirming(false);
    } finally {
      setRevealing(false);
    }
  };

  return (
    <div>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        {unlocked ? (
          <TextInput
            style={{ flex: 1 }}
            label={label}
            description={description}
            value={value}
            onChange={(e) => onChange(e.currentTarget.value)}
            error={error}
            autoComplete="off"
            spellCheck={false}
            ff="monospace"
            data-testid={`setting-${name}`}
            // The admin asked to edit it: the field takes the focus.
            autoFocus
          />
        ) : (
          <TextInput
            style={{ flex: 1 }}
            label={label}
            description={description}
            value={lockedView(value)}
            readOnly
            error={error}
            leftSection={<IconLock size={16} aria-hidden />}
            data-testid={`setting-${name}`}
          />
        )}
        {canEdit &&
          (unlocked ? (
            <Button variant="default" leftSection={<IconLock size={16} aria-hidden />} onClick={onLock} data-testid={`lock-${name}`}>
              {t('secret.lock')}
            </Button>
          ) : (
            <Button variant="default" leftSection={<IconLockOpen size={16} aria-hidden />} onClick={() => setConfirming(true)} data-testid={`edit-${name}`}>
              {t('secret.edit')}
            </Button>
          ))}
        {actions}
      </Group>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('secret.confirmTitle')}
        onConfirm={() => void confirm()}
        confirmLabel={t('secret.confirm')}
        confirmColor="red"
        confirmLoading={revealing}
        data-testid="secret-confirm"
      >
        <Text size="sm">{t('secret.warning', { label })}</Text>
      </Modal>
    </div>
  );
}
