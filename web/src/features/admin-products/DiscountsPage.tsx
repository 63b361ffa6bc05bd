// /admin/discounts: discount codes (spec part 1 §3 Discount: code, is_percent, amount, first_invoice_only)
// through GET/POST/PUT /discounts/admin — list and search, create, edit, switch off (a code switched off is
// refused at checkout with the spec's 412). Managers read the list; admins change it.
import { Alert, Badge, Button, Group, NumberInput, SegmentedControl, Skeleton, Stack, Switch, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { discountAmountIssue, DISCOUNT_CODE_PATTERN, DISCOUNTS_PAGE_SIZE, type DiscountRecord } from '@pluma/common/discounts';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error';
import { useSession } from '../../platform/session/session-context';
import { showSuccess } from '../../ui/alerts';
import { ListPagination } from '../../ui/ListPagination';
import { ListResults } from '../../ui/ListResults';
import { ListTable } from '../../ui/ListTable';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { Modal } from '../../ui/Modal';
import { PageHeader } from '../../ui/PageHeader';
import { SearchInput } from '../../ui/SearchInput';
import { useListControls } from '../../ui/use-list-controls';
import { localizeServerText } from '../../ui/server-text';
import { useErrorHandler } from '../../ui/use-error-handler';
import { createDiscount, DISCOUNTS_KEY, updateDiscount, useDiscountList } from './products-api';
import { formatCurrency, formatNumber } from '../../i18n/format';

interface DiscountFormValues {
  discount_id: number | null;
  code: string;
  is_percent: boolean;
  amount: number | '';
  first_invoice_only: boolean;
  active: boolean;
}

const emptyDiscount = (): DiscountFormValues => ({ discount_id: null, code: '', is_percent: true, amount: '', first_invoice_only: false, active: true });
const formOf = (d: DiscountRecord): DiscountFormValues => ({ discount_id: d.discount_id, code: d.code, is_percent: d.is_percent, amount: d.amount, first_invoice_only: d.first_invoice_only, active: d.active });

/** The form's problems as i18n keys of this namespace (the server checks the same, common/src/discounts.ts). */
export function discountFormErrors(values: DiscountFormValues): { code?: string; amount?: string } {
  const errors: { code?: string; amount?: string } = {};
  if (!DISCOUNT_CODE_PATTERN.test(values.code.trim())) errors.code = 'discounts.errors.code';
  if (values.amount === '' || values.amount <= 0) errors.amount = 'discounts.errors.amount';
  else if (discountAmountIssue({ is_percent: values.is_percent, amount: values.amount })) errors.amount = 'discounts.errors.percent';
  return errors;
}

export default function DiscountsPage() {
  const { t, i18n } = useTranslation('admin-products');
  const isAdmin = useSession().user?.staff?.role === 'admin';
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const { search, setSearch, query, page, setPage, pageCount } = useListControls(DISCOUNTS_PAGE_SIZE);
  const list = useDiscountList(query, page);
  const [editing, setEditing] = useState<DiscountFormValues | null>(null);
  const [errors, setErrors] = useState<{ code?: string; amount?: string }>({});
  const [serverError, setServerError] = useState<string | null>(null);

  const done = (message: string) => {
    void queryClient.invalidateQueries({ queryKey: DISCOUNTS_KEY });
    showSuccess(message);
  };
  const save = useMutation({
    mutationFn: (v: DiscountFormValues) => {
      const body = { code: v.code.trim(), is_percent: v.is_percent, amount: Number(v.amount), first_invoice_only: v.first_invoice_only, active: v.active };
      return v.discount_id === null ? createDiscount(body) : updateDiscount({ discount_id: v.discount_id, ...body });
    },
    onSuccess: (saved) => {
      setEditing(null);
      done(t('discounts.saved', { code: saved.code }));
    },
    onError: (error) => {
      if (error instanceof ApiError && (error.status === 400 || error.status === 409)) setServerError(localizeServerText(error.message));
      else handleError(error);
    },
  });
  const toggle = useMutation({
    mutationFn: (d: DiscountRecord) => updateDiscount({ discount_id: d.discount_id, active: !d.active }),
    onSuccess: (saved) => done(saved.active ? t('discounts.enabled', { code: saved.code }) : t('discounts.disabled', { code: saved.code })),
    onError: (error) => handleError(error, { showValidation: true }),
  });

  const open = (values: DiscountFormValues) => {
    setErrors({});
    setServerError(null);
    setEditing(values);
  };
  const submit = () => {
    if (!editing) return;
    const found = discountFormErrors(editing);
    setErrors(found);
    if (!found.code && !found.amount) save.mutate(editing);
  };
  const amountText = (d: DiscountRecord) =>
    d.is_percent ? `${formatNumber(d.amount, i18n.language)}%` : formatCurrency(d.amount, i18n.language);

  const pages = pageCount(list.data?.total);
  return (
    <Stack>
      <PageHeader
        title={t('discounts.title')}
        actions={
          isAdmin && (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => open(emptyDiscount())} data-testid="discount-add">
              {t('discounts.add')}
            </Button>
          )
        }
      />
      <SearchInput label={t('discounts.search')} value={search} onChange={setSearch} maw={360} />
      <ListResults
        list={list}
        isEmpty={(data) => data.discounts.length === 0}
        loading={<Skeleton height={160} />}
        failed={<LoadErrorAlert title={t('discounts.loadError')} onRetry={() => void list.refetch()} retryLabel={t('retry')} />}
        empty={<Text data-testid="discounts-empty">{t('discounts.empty')}</Text>}
      >
        {({ discounts }) => (
          <ListTable
            minWidth={640}
            highlightOnHover
            data-testid="discounts-table"
            head={
              <>
                <Table.Th>{t('discounts.code')}</Table.Th>
                <Table.Th>{t('discounts.amount')}</Table.Th>
                <Table.Th>{t('discounts.firstInvoiceOnly')}</Table.Th>
                <Table.Th>{t('discounts.redemptions')}</Table.Th>
                <Table.Th>{t('discounts.status')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('list.columns.actions')}</VisuallyHidden>
                </Table.Th>
              </>
            }
          >
            {discounts.map((d) => (
              <Table.Tr key={d.discount_id} data-testid="discount-row">
                <Table.Td ff="monospace">{d.code}</Table.Td>
                <Table.Td>{amountText(d)}</Table.Td>
                <Table.Td>{d.first_invoice_only ? t('discounts.yes') : t('discounts.no')}</Table.Td>
                <Table.Td>{d.redemptions}</Table.Td>
                <Table.Td>
                  <Badge variant="dot" color={d.active ? 'green' : 'gray'}>
                    {d.active ? t('discounts.active') : t('discounts.inactive')}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {isAdmin && (
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="default" onClick={() => open(formOf(d))} aria-label={t('discounts.editNamed', { code: d.code })}>
                        {t('list.edit')}
                      </Button>
                      <Button
                        size="xs"
                        variant="light"
                        color={d.active ? 'red' : 'green'}
                        loading={toggle.isPending && toggle.variables?.discount_id === d.discount_id}
                        onClick={() => toggle.mutate(d)}
                        data-testid={`discount-toggle-${d.discount_id}`}
                      >
                        {d.active ? t('discounts.disable') : t('discounts.enable')}
                      </Button>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListResults>
      <ListPagination total={pages} value={page} onChange={setPage} />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.discount_id === null ? t('discounts.newTitle') : t('discounts.editTitle')}
        onConfirm={submit}
        confirmLabel={t('form.save')}
        confirmLoading={save.isPending}
        data-testid="discount-modal"
      >
        {editing && (
          <Stack gap="sm">
            {serverError && (
              <Alert color="red" role="alert">
                {serverError}
              </Alert>
            )}
            <TextInput
              label={t('discounts.code')}
              value={editing.code}
              onChange={(e) => setEditing({ ...editing, code: e.currentTarget.value })}
              error={errors.code && t(errors.code)}
              data-testid="discount-code"
            />
            <SegmentedControl
              aria-label={t('discounts.kind')}
              value={editing.is_percent ? 'percent' : 'amount'}
              onChange={(value) => setEditing({ ...editing, is_percent: value === 'percent' })}
              data={[
                { value: 'percent', label: t('discounts.percent') },
                { value: 'amount', label: t('discounts.dollars') },
              ]}
            />
            <NumberInput
              label={t('discounts.amount')}
              value={editing.amount}
              onChange={(value) => setEditing({ ...editing, amount: value === '' ? '' : Number(value) })}
              decimalScale={2}
              min={0}
              suffix={editing.is_percent ? '%' : undefined}
              prefix={editing.is_percent ? undefined : '$'}
              error={errors.amount && t(errors.amount)}
              data-testid="discount-amount"
            />
            <Switch
              label={t('discounts.firstInvoiceOnly')}
              checked={editing.first_invoice_only}
              onChange={(e) => setEditing({ ...editing, first_invoice_only: e.currentTarget.checked })}
            />
            <Switch label={t('discounts.active')} checked={editing.active} onChange={(e) => setEditing({ ...editing, active: e.currentTarget.checked })} />
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
