// /admin/users/{id}/edit and /admin/users/new/edit (spec part 1 §2 "Customer form"): name, last_name, email,
// phone, instagram, lang, signup_reason (labelled publicity), birthday as YYYY-MM-DD. 'new' creates the
// account without sign-up (the customer gets a password-reset email); a number updates it (§4 save rule).
import { Button, Group, Select, Skeleton, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { customerForm, type CustomerFormInput } from '@pluma/common/admin-users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { showSuccess } from '../../ui/alerts';
import { formRules } from '../../ui/form-rules';
import { PageHeader } from '../../ui/PageHeader';
import { useLocalizedInputProps } from '../../ui/screen-text';
import { useErrorHandler } from '../../ui/use-error-handler';
import { CUSTOMERS_KEY, customerKey, saveCustomer, useCustomer } from './admin-users-api';

interface Values {
  name: string;
  last_name: string;
  email: string;
  phone: string;
  instagram: string;
  lang: 'en' | 'es';
  signup_reason: string;
  birthday: string;
}

const EMPTY: Values = { name: '', last_name: '', email: '', phone: '', instagram: '', lang: 'en', signup_reason: '', birthday: '' };

const payload = (v: Values): CustomerFormInput => ({
  name: v.name,
  last_name: v.last_name,
  email: v.email,
  phone: v.phone || null,
  instagram: v.instagram || null,
  lang: v.lang,
  signup_reason: v.signup_reason || null,
  birthday: v.birthday || null,
});

export default function CustomerFormPage() {
  const { t } = useTranslation('admin-users');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const param = useParams().id ?? 'new';
  // spec part 1 §4: an id that is not numeric means create.
  const userId = /^\d+$/.test(param) ? Number(param) : null;
  const existing = useCustomer(userId);
  const form = useForm<Values>({ initialValues: EMPTY, validate: formRules<Values>({ schema: customerForm, payload }) });
  const inputProps = useLocalizedInputProps(form);
  const loaded = existing.data;

  useEffect(() => {
    if (!loaded) return;
    const values: Values = {
      name: loaded.name,
      last_name: loaded.last_name,
      email: loaded.email,
      phone: loaded.phone ?? '',
      instagram: loaded.instagram ?? '',
      lang: loaded.lang,
      signup_reason: loaded.signup_reason ?? '',
      birthday: loaded.birthday ?? '',
    };
    form.setValues(values);
    form.resetDirty(values);
    // Filled once per loaded customer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded?.user_id]);

  const save = useMutation({
    mutationFn: (values: Values) => saveCustomer(userId, payload(values)),
    onSuccess: (saved) => {
      showSuccess(t(userId == null ? 'form.created' : 'form.updated'));
      void queryClient.invalidateQueries({ queryKey: CUSTOMERS_KEY });
      queryClient.setQueryData(customerKey(saved.user_id), saved);
      void navigate(`/admin/users/${saved.user_id}`);
    },
    onError: (error) => {
      // A 400's per-field messages go under their fields; anything else is an alert.
      if (error instanceof ApiError && error.status === 400 && error.body?.details) form.setErrors(error.body.details);
      else handleError(error);
    },
  });

  if (userId != null && existing.isPending) return <Skeleton height={320} data-testid="customer-form-loading" />;

  return (
    <Stack maw={640} data-testid="customer-form">
      <PageHeader title={t(userId == null ? 'form.newTitle' : 'form.editTitle')} />
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="sm">
          <Group grow align="flex-start">
            <TextInput label={t('fields.name')} required {...inputProps('name')} data-testid="form-name" />
            <TextInput label={t('fields.last_name')} {...inputProps('last_name')} data-testid="form-last-name" />
          </Group>
          <TextInput label={t('fields.email')} type="email" required {...inputProps('email')} data-testid="form-email" />
          <Group grow align="flex-start">
            <TextInput label={t('fields.phone')} type="tel" {...inputProps('phone')} data-testid="form-phone" />
            <TextInput label={t('detail.instagram')} {...inputProps('instagram')} data-testid="form-instagram" />
          </Group>
          <Group grow align="flex-start">
            <Select
              label={t('form.lang')}
              data={[
                { value: 'en', label: 'English' },
                { value: 'es', label: 'Español' },
              ]}
              allowDeselect={false}
              {...inputProps('lang')}
              data-testid="form-lang"
            />
            <TextInput label={t('form.birthday')} placeholder="YYYY-MM-DD" {...inputProps('birthday')} data-testid="form-birthday" />
          </Group>
          <TextInput label={t('form.publicity')} {...inputProps('signup_reason')} data-testid="form-publicity" />
          <Group justify="flex-end" mt="sm">
            <Button component={Link} to={userId == null ? '/admin/users' : `/admin/users/${userId}`} variant="default">
              {t('form.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="form-save">
              {t('form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
