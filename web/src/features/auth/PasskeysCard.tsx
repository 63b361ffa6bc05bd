// Settings › Security: passkeys (issue 33 item 3). Add one (named, then the browser's own prompt: a
// fingerprint, a face, a PIN or a security key), list them with when each was last used, rename, delete.
// A passkey signs in on its own and counts as a second factor.
import { ActionIcon, Button, Card, Group, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconPencil, IconTrash, IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../i18n/format';
import { useSession } from '../../platform/session/session-context';
import { showSuccess } from '../../ui/alerts';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { screenText, type ScreenText } from '../../ui/screen-text';
import { deletePasskey, listPasskeys, renamePasskey, type Passkey } from './auth-api';
import { addPasskey, isPasskeyCancelled, passkeysSupported } from './passkeys';
import { useReconfirmIdentity } from './ReconfirmIdentity';

export function PasskeysCard() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ id: number; name: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ScreenText | null>(null);
  // Adding or deleting one may first ask "Confirm it's you" (a second factor passed in the last 15 minutes).
  const { confirmed, dialog } = useReconfirmIdentity();

  const load = () => listPasskeys().then(({ passkeys: rows }) => setPasskeys(rows), (error: unknown) => setFailure({ failure: error }));
  useEffect(() => void load(), []);

  const act = async (action: () => Promise<void>) => {
    setFailure(null);
    setBusy(true);
    try {
      await action();
    } catch (error) {
      setFailure(isPasskeyCancelled(error) ? { key: 'passkeys.cancelled' } : { failure: error, options: { showValidation: true } });
    } finally {
      setBusy(false);
    }
  };

  const add = () =>
    act(async () => {
      if (!(await confirmed(() => addPasskey(name.trim())))) return;
      setName('');
      showSuccess(t('passkeys.added'));
      // Proving a passkey passes the second factor for this sign-in (a gated admin page opens).
      await Promise.all([load(), session.reloadUser()]);
    });
  const rename = () =>
    act(async () => {
      if (!editing) return;
      await renamePasskey(editing.id, editing.name.trim());
      setEditing(null);
      await load();
    });
  const remove = (passkey: Passkey) =>
    act(async () => {
      if (!(await confirmed(() => deletePasskey(passkey.passkey_id)))) return;
      showSuccess(t('passkeys.deleted'));
      await load();
    });

  const when = (iso: string | null) => (iso ? formatDateTime(iso, i18n.language) : t('passkeys.neverUsed'));

  return (
    <Card withBorder radius="lg" padding="xl" data-testid="passkeys-card" aria-busy={busy}>
      {dialog}
      <Stack gap="md">
        <Text fw={600}>{t('passkeys.cardTitle')}</Text>
        <Text size="sm" c="var(--pluma-muted)">
          {t('passkeys.cardHint')}
        </Text>
        <ErrorAlert message={screenText(failure, t)} onClose={() => setFailure(null)} autoHideMs={0} />
        {passkeys && passkeys.length === 0 && (
          <Text size="sm" data-testid="passkeys-empty">
            {t('passkeys.none')}
          </Text>
        )}
        {passkeys && passkeys.length > 0 && (
          <Table data-testid="passkeys-list" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('passkeys.name')}</Table.Th>
                <Table.Th>{t('passkeys.created')}</Table.Th>
                <Table.Th>{t('passkeys.lastUsed')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {passkeys.map((passkey) => (
                <Table.Tr key={passkey.passkey_id} data-testid="passkey-row">
                  <Table.Td>
                    {editing?.id === passkey.passkey_id ? (
                      <Group gap={4} wrap="nowrap">
                        <TextInput
                          size="xs"
                          aria-label={t('passkeys.name')}
                          value={editing.name}
                          maxLength={60}
                          onChange={(event) => setEditing({ id: passkey.passkey_id, name: event.currentTarget.value })}
                        />
                        <ActionIcon variant="subtle" aria-label={t('common.save')} onClick={() => void rename()} disabled={editing.name.trim() === ''}>
                          <IconCheck size={16} aria-hidden />
                        </ActionIcon>
                        <ActionIcon variant="subtle" color="gray" aria-label={t('common.cancel')} onClick={() => setEditing(null)}>
                          <IconX size={16} aria-hidden />
                        </ActionIcon>
                      </Group>
                    ) : (
                      passkey.name
                    )}
                  </Table.Td>
                  <Table.Td>{when(passkey.createdAt)}</Table.Td>
                  <Table.Td>{when(passkey.last_used_at)}</Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Tooltip label={t('passkeys.rename')}>
                        <ActionIcon variant="subtle" aria-label={t('passkeys.rename')} onClick={() => setEditing({ id: passkey.passkey_id, name: passkey.name })}>
                          <IconPencil size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('passkeys.delete')}>
                        <ActionIcon variant="subtle" color="red" aria-label={t('passkeys.delete')} onClick={() => void remove(passkey)}>
                          <IconTrash size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {passkeysSupported() ? (
          <Group align="flex-end">
            <TextInput
              label={t('passkeys.newName')}
              placeholder={t('passkeys.namePlaceholder')}
              value={name}
              maxLength={60}
              onChange={(event) => setName(event.currentTarget.value)}
              maw={320}
            />
            <Button onClick={() => void add()} loading={busy} disabled={name.trim() === ''}>
              {t('passkeys.add')}
            </Button>
          </Group>
        ) : (
          <Text size="sm">{t('passkeys.unsupported')}</Text>
        )}
      </Stack>
    </Card>
  );
}
