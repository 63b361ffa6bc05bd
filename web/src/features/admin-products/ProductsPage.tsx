// /admin/products (spec part 1 §2 "Products list"): search with a 500 ms debounce, sort by product_id,
// name, word_amount and price (default name ascending), 'Unlimited' for a null word_amount, a Test button
// where webhook_url is set, 'No products available.'. Managers read it; admins also add, edit and test.
import { Alert, Badge, Button, Code, Group, Pagination, Skeleton, Stack, Table, Text, TextInput, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import type { PurchaseTestResponse } from '@pluma/common/admin-purchases';
import { PRODUCTS_PAGE_SIZE, type ManagedProduct, type ProductSortKey } from '@pluma/common/products';
import { IconChevronDown, IconChevronUp, IconPlus, IconSearch, IconSelector } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../app/session/session-context';
import { Modal } from '../../ui/Modal';
import { PageHeader } from '../../ui/PageHeader';
import { useErrorHandler } from '../../ui/use-error-handler';
import { testProductWebhook, useProductList } from './products-api';

const SORTABLE: ProductSortKey[] = ['product_id', 'name', 'word_amount', 'price'];

export const formatMoney = (amount: number, lang: string) => new Intl.NumberFormat(lang, { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(amount);

function SortHeader({ column, sort, direction, onSort, label }: { column: ProductSortKey; sort: ProductSortKey; direction: 'asc' | 'desc'; onSort: (c: ProductSortKey) => void; label: string }) {
  const active = sort === column;
  const Icon = active ? (direction === 'asc' ? IconChevronUp : IconChevronDown) : IconSelector;
  return (
    <Table.Th aria-sort={active ? (direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => onSort(column)} data-testid={`sort-${column}`}>
        <Group gap={4} wrap="nowrap">
          <Text fw={700} size="sm">
            {label}
          </Text>
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

export default function ProductsPage() {
  const { t, i18n } = useTranslation('admin-products');
  const session = useSession();
  const isAdmin = session.user?.staff?.role === 'admin';
  const handleError = useErrorHandler();
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<ProductSortKey>('name');
  const [direction, setDirection] = useState<'asc' | 'desc'>('asc');
  const list = useProductList({ query, page, sort, direction });
  const [tested, setTested] = useState<{ product: ManagedProduct; answer: PurchaseTestResponse } | null>(null);
  const webhookTest = useMutation({
    mutationFn: (product: ManagedProduct) => testProductWebhook(product.product_id).then((answer) => ({ product, answer })),
    onSuccess: setTested,
    onError: (error) => handleError(error, { showValidation: true }),
  });

  const onSort = (column: ProductSortKey) => {
    if (column === sort) setDirection(direction === 'asc' ? 'desc' : 'asc');
    else {
      setSort(column);
      setDirection('asc');
    }
    setPage(1);
  };

  const products = list.data?.products ?? [];
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PRODUCTS_PAGE_SIZE));
  return (
    <Stack>
      <PageHeader
        title={t('list.title')}
        actions={
          isAdmin && (
            <Button component={Link} to="/admin/products/new" leftSection={<IconPlus size={16} aria-hidden />}>
              {t('list.add')}
            </Button>
          )
        }
      />
      <TextInput
        label={t('list.search')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
        maw={360}
        data-testid="products-search"
      />
      {list.isPending ? (
        <Skeleton height={200} data-testid="products-loading" />
      ) : list.isError ? (
        <Alert color="red" role="alert" title={t('list.loadError')}>
          <Button size="xs" variant="default" onClick={() => void list.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : products.length === 0 ? (
        <Text data-testid="products-empty">{t('list.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table highlightOnHover data-testid="products-table">
            <Table.Thead>
              <Table.Tr>
                {SORTABLE.map((column) => (
                  <SortHeader key={column} column={column} sort={sort} direction={direction} onSort={onSort} label={t(`list.columns.${column}`)} />
                ))}
                <Table.Th>{t('list.columns.kind')}</Table.Th>
                <Table.Th>{t('list.columns.available')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('list.columns.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {products.map((product) => (
                <Table.Tr key={product.product_id} data-testid="product-row">
                  <Table.Td>#{product.product_id}</Table.Td>
                  <Table.Td>{product.name}</Table.Td>
                  <Table.Td>{product.word_amount === null ? t('list.unlimited') : product.word_amount.toLocaleString(i18n.language)}</Table.Td>
                  <Table.Td>
                    {product.sale_price !== null ? (
                      <>
                        {formatMoney(product.sale_price, i18n.language)}{' '}
                        <Text span td="line-through" size="xs" c="dimmed">
                          {formatMoney(product.price, i18n.language)}
                        </Text>
                      </>
                    ) : (
                      formatMoney(product.price, i18n.language)
                    )}
                  </Table.Td>
                  <Table.Td>{product.is_subscription ? t('list.subscription') : t('list.oneTime')}</Table.Td>
                  <Table.Td>
                    <Badge variant="dot" color={product.available ? 'green' : 'gray'}>
                      {product.available ? t('list.onSale') : t('list.offSale')}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      {isAdmin && product.webhook_url && (
                        <Button
                          size="xs"
                          variant="light"
                          loading={webhookTest.isPending && webhookTest.variables?.product_id === product.product_id}
                          onClick={() => webhookTest.mutate(product)}
                          data-testid={`webhook-test-${product.product_id}`}
                        >
                          {t('list.test')}
                        </Button>
                      )}
                      {product.abilities.update && (
                        <Button size="xs" variant="default" component={Link} to={`/admin/products/${product.product_id}/edit`} aria-label={t('list.editNamed', { name: product.name })}>
                          {t('list.edit')}
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} siblings={1} boundaries={1} getControlProps={(control) => ({ 'aria-label': t(`list.page.${control}`) })} />}
      <Modal opened={tested !== null} onClose={() => setTested(null)} title={t('webhookTest.title', { name: tested?.product.name ?? '' })} size="lg" data-testid="webhook-test-result">
        {tested && (
          <Stack gap="xs">
            <Text size="sm">{t('webhookTest.url', { url: tested.answer.url })}</Text>
            <Text size="sm" c={tested.answer.ok ? 'green.9' : 'red.8'} fw={600}>
              {tested.answer.ok ? t('webhookTest.ok', { status: tested.answer.status }) : t('webhookTest.failed', { status: tested.answer.status })}
            </Text>
            <Code block style={{ whiteSpace: 'pre-wrap' }}>
              {tested.answer.body || t('webhookTest.emptyBody')}
            </Code>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
