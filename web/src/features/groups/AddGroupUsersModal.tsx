// 'Add Users to Group' (spec part 2 §2, §5): the candidates are the organization's members not in the group
// yet (the server lists them); adding proceeds only when a user is chosen and candidates exist.
import { Button, Group as Row, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../ui/alerts';
import { Modal } from '../../ui/Modal';
import { useErrorHandler } from '../../ui/use-error-handler';
import { addGroupUser, GROUPS_KEY, useGroupCandidates } from './groups-api';

export function AddGroupUsersModal({ groupId, opened, onClose }: { groupId: number; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('groups');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const candidates = useGroupCandidates(groupId, opened);
  const [chosen, setChosen] = useState<string | null>(null);
  const users = candidates.data?.users ?? [];
  const close = () => {
    setChosen(null);
    onClose();
  };
  const add = useMutation({
    mutationFn: (userId: number) => addGroupUser(groupId, userId),
    onSuccess: () => {
      showSuccess(t('users.added'));
      void queryClient.invalidateQueries({ queryKey: GROUPS_KEY });
      close();
    },
    onError: (e) => handleError(e, { showValidation: true }),
  });
  return (
    <Modal opened={opened} onClose={close} title={t('users.addTitle')} data-testid="add-group-users-modal">
      <Stack gap="md">
        {candidates.isSuccess && users.length === 0 ? (
          <Text size="sm" data-testid="no-candidates">
            {t('users.noCandidates')}
          </Text>
        ) : (
          <Select
            label={t('users.user')}
            placeholder={t('users.choose')}
            data={users.map((u) => ({ value: String(u.user_id), label: `${`${u.name} ${u.last_name}`.trim() || u.email} · ${u.email}` }))}
            value={chosen}
            onChange={setChosen}
            searchable
            disabled={!candidates.isSuccess}
            comboboxProps={{ withinPortal: true }}
            data-testid="group-candidate"
          />
        )}
        <Row justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={add.isPending}>
            {t('form.cancel')}
          </Button>
          <Button onClick={() => chosen && add.mutate(Number(chosen))} disabled={!chosen || users.length === 0} loading={add.isPending} data-testid="add-group-user">
            {t('users.add')}
          </Button>
        </Row>
      </Stack>
    </Modal>
  );
}
