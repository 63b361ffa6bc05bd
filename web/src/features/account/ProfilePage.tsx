// Profile (spec part 1 §2): name, email, company, sign-out, language picker; plus phone (kept to 10
// digits, spec part 1 §5), changing the password (/profile#password) and deleting one's own account
// (spec part 1 §6).
import { Avatar, Button, Card, Divider, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Lang } from '@pluma/common/constants';
import { normalizeProfilePhone } from '@pluma/common/users';
import { IconLanguage, IconLogout, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ApiError } from '../../api/api-error';
import { useCurrentUser, useSession } from '../../platform/session/session-context';
import { initials } from '../../ui/initials';
import { showSuccess } from '../../ui/alerts';
import { Modal } from '../../ui/Modal';
import { PageHeader } from '../../ui/PageHeader';
import { useLocalizedInputProps } from '../../ui/screen-text';
import { useErrorHandler } from '../../ui/use-error-handler';
import { ChangePasswordCard } from './ChangePasswordCard';
import { LanguageModal } from './LanguageModal';
import { profileErrors, profilePayload, profileValues, type ProfileValues } from './profile-form';
import { deleteOwnAccount } from './profile-api';
import { useSaveProfile } from './use-save-profile';

export default function ProfilePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const session = useSession();
  const handleError = useErrorHandler();
  const save = useSaveProfile();
  const saveLanguage = useSaveProfile();
  const [languageOpen, setLanguageOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const form = useForm<ProfileValues>({ initialValues: profileValues(user), validate: profileErrors });
  const inputProps = useLocalizedInputProps(form);
  const { hash } = useLocation();

  // Linked as /profile#password (e.g. to ask a new admin to replace a generated password).
  useEffect(() => {
    if (hash !== '#password') return;
    const card = document.getElementById('password');
    card?.scrollIntoView({ block: 'start' });
    card?.querySelector('input')?.focus();
  }, [hash]);

  const submit = form.onSubmit((values) => {
    save.mutate(
      profilePayload(values),
      {
        onSuccess: (updated) => {
          form.setValues({ phone: updated?.phone ?? normalizeProfilePhone(values.phone) });
          form.resetDirty();
          showSuccess(t('profile.saved'));
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 400 && Object.keys(error.details).length > 0) form.setErrors(error.details);
          else handleError(error, { showValidation: true });
        },
      },
    );
  });

  const chooseLanguage = (lang: Lang) => {
    if (lang === user.lang) {
      setLanguageOpen(false);
      return;
    }
    saveLanguage.mutate({ lang }, { onSuccess: () => setLanguageOpen(false), onError: (error) => handleError(error, { showValidation: true }) });
  };

  const deleteAccount = async () => {
    setDeleting(true);
    try {
      await deleteOwnAccount();
      setDeleteOpen(false);
      await session.signOut();
    } catch (error) {
      handleError(error, { showValidation: true });
    } finally {
      setDeleting(false);
    }
  };

  const fullName = `${user.name} ${user.last_name}`.trim();
  return (
    <Stack gap="lg" maw={720} data-testid="profile-page">
      <PageHeader title={t('profile.title')} description={t('profile.description')} />
      <Card withBorder radius="lg" padding="xl">
        <Group gap="md" wrap="nowrap">
          <Avatar src={user.picture} size={64} radius="xl" color="brand" alt="">
            {initials(user)}
          </Avatar>
          <div style={{ minWidth: 0 }}>
            <Title order={2} fz="lg" lh={1.3}>
              {fullName || user.email}
            </Title>
            <Text c="var(--pluma-muted)" size="sm" truncate>
              {user.email}
            </Text>
          </div>
        </Group>
        <Divider my="lg" />
        <form onSubmit={submit} noValidate aria-busy={save.isPending} data-testid="profile-form">
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
              <TextInput label={t('signup.name')} autoComplete="given-name" required autoFocus {...inputProps('name')} />
              <TextInput label={t('signup.lastName')} autoComplete="family-name" {...inputProps('last_name')} />
            </SimpleGrid>
            <TextInput label={t('auth.email')} value={user.email} readOnly description={t('profile.emailHint')} />
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
              <TextInput label={t('profile.company')} autoComplete="organization" {...inputProps('company')} />
              <TextInput label={t('signup.phone')} type="tel" autoComplete="tel" inputMode="tel" description={t('profile.phoneHint')} {...inputProps('phone')} />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>

      <ChangePasswordCard />

      <Card withBorder radius="lg" padding="xl">
        <Group justify="space-between" gap="md">
          <div>
            <Text fw={600}>{t('language.label')}</Text>
            <Text size="sm" c="var(--pluma-muted)">
              {user.lang === 'es' ? 'Español' : 'English'}
            </Text>
          </div>
          <Button variant="default" leftSection={<IconLanguage size={18} aria-hidden />} onClick={() => setLanguageOpen(true)}>
            {t('language.change')}
          </Button>
        </Group>
        <Divider my="lg" />
        <Group justify="space-between" gap="md">
          <div>
            <Text fw={600}>{t('profile.signOutTitle')}</Text>
            <Text size="sm" c="var(--pluma-muted)">
              {t('profile.signOutHint')}
            </Text>
          </div>
          <Button variant="default" leftSection={<IconLogout size={18} aria-hidden />} onClick={() => void session.signOut()}>
            {t('shell.logout')}
          </Button>
        </Group>
      </Card>

      <Card withBorder radius="lg" padding="xl" data-testid="danger-zone">
        <Group justify="space-between" gap="md">
          <div style={{ flex: '1 1 260px' }}>
            <Text fw={600}>{t('profile.deleteTitle')}</Text>
            <Text size="sm" c="var(--pluma-muted)">
              {t('profile.deleteHint')}
            </Text>
          </div>
          <Button color="red" variant="light" leftSection={<IconTrash size={18} aria-hidden />} onClick={() => setDeleteOpen(true)}>
            {t('profile.deleteButton')}
          </Button>
        </Group>
      </Card>

      <LanguageModal opened={languageOpen} current={user.lang} saving={saveLanguage.isPending} onChoose={chooseLanguage} onClose={() => setLanguageOpen(false)} />
      <Modal
        opened={deleteOpen}
        onClose={() => setDeleteOpen(false)}
        title={t('profile.deleteTitle')}
        onConfirm={() => void deleteAccount()}
        confirmLabel={t('profile.deleteConfirm')}
        confirmColor="red"
        confirmLoading={deleting}
        data-testid="delete-account-modal"
      >
        <Text>{t('profile.deleteWarning')}</Text>
      </Modal>
    </Stack>
  );
}
