// /admin/staff (spec part 1 §2 "Staff page"): search by email; a table of name, email, role and actions;
// the role changed in a modal; removal after a confirmation; staff added by searching the customers or
// inviting a new email (the server creates the account and emails the invitation). Admins only.
import { Autocomplete, Button, Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { StaffRole } from '@pluma/common/constants';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import { STAFF_PAGE_SIZE, type StaffRecord } from '@pluma/common/staff';
import { IconEdit, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../ui/alerts';
import { ListPagination } from '../../ui/ListPagination';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { LabelledTd, ListTable, WholeTd } from '../../ui/ListTable';
import { Modal } from '../../ui/Modal';
import { PageHeader } from '../../ui/PageHeader';
import { screenText } from '../../ui/screen-text';
import { SearchInput } from '../../ui/SearchInput';
import { TableStateRows } from '../../ui/TableStateRows';
import { useListControls } from '../../ui/use-list-controls';
import { useErrorHandler } from '../../ui/use-error-handler';
import { addStaff, changeStaffRole, removeStaff, STAFF_KEY, useCustomerMatches, useStaff } from './staff-api';

function RoleControl({ value, onChange }: { value: StaffRole; onChange: (role: StaffRole) => void }) {
  const { t } = useTranslation('admin-staff');
  return (
    <SegmentedControl
      fullWidth
      value={value}
      onChange={(v) => onChange(v as StaffRole)}
      data={[
        { value: 'admin', label: t('roles.admin') },
        { value: 'manager', label: t('roles.manager') },
      ]}
      data-testid="role-control"
    />
  );
}

function AddStaffModal({ opened, onClose, onDone }: { opened: boolean; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('admin-staff');
  const handleError = useErrorHandler();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<StaffRole>('manager');
  const [debounced] = useDebouncedValue(email.trim(), SEARCH_DEBOUNCE_MS);
  const matches = useCustomerMatches(opened ? debounced : '');
  const valid = /^\S+@\S+\.\S+$/.test(email.trim());
  const save = useMutation({
    mutationFn: () => addStaff(email.trim(), role),
    onSuccess: () => {
      showSuccess(t('added'));
      setEmail('');
      onDone();
      onClose();
    },
    onError: (e) => handleError(e),
  });
  const candidates = (matches.data?.users ?? []).filter((u) => !u.role);
  const known = matches.data?.users.some((u) => u.email.toLowerCase() === email.trim().toLowerCase());
  return (
    <Modal opened={opened} onClose={onClose} title={t('addTitle')} onConfirm={() => save.mutate()} confirmLabel={t('add')} confirmLoading={save.isPending} confirmDisabled={!valid} data-testid="add-staff-modal">
      <Stack gap="sm">
        <Autocomplete
          label={t('emailLabel')}
          description={t('addHelp')}
          value={email}
          onChange={setEmail}
          // Each suggestion is its email (Autocomplete puts an option's label in the field, so the label is the
          // bare email); the customer's name is only drawn beside it in the list.
          data={candidates.map((u) => u.email)}
          renderOption={({ option }) => {
            const match = candidates.find((u) => u.email === option.value);
            const name = match ? `${match.name} ${match.last_name}`.trim() : '';
            return (
              <div data-testid="staff-candidate">
                <Text size="sm">{option.value}</Text>
                {name && (
                  <Text size="xs" c="dimmed">
                    {name}
                  </Text>
                )}
              </div>
            );
          }}
          data-autofocus
          data-testid="add-staff-email"
        />
        {valid && !matches.isFetching && debounced === email.trim() && !known && (
          <Text size="xs" c="dimmed" data-testid="invite-note">
            {t('inviteNote')}
          </Text>
        )}
        <RoleControl value={role} onChange={setRole} />
      </Stack>
    </Modal>
  );
}

export default function StaffPage() {
  const { t } = useTranslation('admin-staff');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const { search, setSearch, query, page, setPage, pageCount } = useListControls(STAFF_PAGE_SIZE);
  const list = useStaff(page, query);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<StaffRecord | null>(null);
  const [role, setRole] = useState<StaffRole>('manager');
  const [removing, setRemoving] = useState<StaffRecord | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: STAFF_KEY });

  const change = useMutation({
    mutationFn: () => changeStaffRole(editing!.staff_id, role),
    onSuccess: () => {
      showSuccess(t('roleSaved'));
      setEditing(null);
      refresh();
    },
    onError: (e) => handleError(e),
  });
  const remove = useMutation({
    mutationFn: () => removeStaff(removing!.staff_id),
    onSuccess: () => {
      showSuccess(t('removed'));
      setRemoving(null);
      refresh();
    },
    onError: (e) => {
      setRemoving(null);
      handleError(e);
    },
  });
  const pages = pageCount(list.data?.total);

  return (
    <Stack gap="md" data-testid="staff-page">
      <PageHeader
        title={t('title')}
        actions={
          <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setAdding(true)} data-testid="add-staff">
            {t('add')}
          </Button>
        }
      />
      <SearchInput label={t('search')} value={search} onChange={setSearch} maw={420} data-testid="staff-search" />
      {list.isError ? (
        <LoadErrorAlert text={screenText({ failure: list.error }, t) ?? t('loadError')} />
      ) : (
        <ListTable
          minWidth={560}
          stacked
          verticalSpacing="xs"
          data-testid="staff-table"
          head={
            <>
              <Table.Th>{t('name')}</Table.Th>
              <Table.Th>{t('email')}</Table.Th>
              <Table.Th>{t('role')}</Table.Th>
              <Table.Th>{t('actions')}</Table.Th>
            </>
          }
        >
          <TableStateRows pending={list.isPending} empty={list.data?.staff.length === 0} columns={4} emptyText={t('empty')} />
          {list.data?.staff.map((member) => (
            <Table.Tr key={member.staff_id} data-testid="staff-row">
              <LabelledTd label={t('name')}>{`${member.user.name} ${member.user.last_name}`.trim()}</LabelledTd>
              <LabelledTd label={t('email')} style={{ overflowWrap: 'anywhere' }}>
                {member.user.email}
              </LabelledTd>
              <WholeTd label={t('role')}>{t(`roles.${member.role}`)}</WholeTd>
              <WholeTd>
                <Group gap="xs" wrap="nowrap">
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    leftSection={<IconEdit size={14} aria-hidden />}
                    onClick={() => {
                      setRole(member.role);
                      setEditing(member);
                    }}
                    aria-label={t('editLabel', { email: member.user.email })}
                  >
                    {t('editRole')}
                  </Button>
                  <Button size="compact-xs" variant="subtle" color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => setRemoving(member)} aria-label={t('removeLabel', { email: member.user.email })}>
                    {t('remove')}
                  </Button>
                </Group>
              </WholeTd>
            </Table.Tr>
          ))}
        </ListTable>
      )}
      <ListPagination total={pages} value={page} onChange={setPage} />

      <AddStaffModal opened={adding} onClose={() => setAdding(false)} onDone={refresh} />
      <Modal opened={editing != null} onClose={() => setEditing(null)} title={t('roleTitle', { email: editing?.user.email ?? '' })} onConfirm={() => change.mutate()} confirmLabel={t('save')} confirmLoading={change.isPending} data-testid="role-modal">
        <RoleControl value={role} onChange={setRole} />
      </Modal>
      <Modal opened={removing != null} onClose={() => setRemoving(null)} title={t('removeTitle')} onConfirm={() => remove.mutate()} confirmLabel={t('remove')} confirmColor="red" confirmLoading={remove.isPending} data-testid="remove-modal">
        <Text size="sm">{t('removeConfirm', { email: removing?.user.email ?? '' })}</Text>
      </Modal>
    </Stack>
  );
}
