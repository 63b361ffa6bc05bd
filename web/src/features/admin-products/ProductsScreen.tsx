// /admin/products (spec part 1 §2 "Products list"): search with a 500 ms debounce, sort by product_id,
// name, word_amount and price (default name ascending), 'Unlimited' for a null word_amount, a Test button
// where webhook_url is set, 'No products available.'. Managers read it; admins also add, edit and test.
// The same screen lists an organization's products for its Admin (product-scope.ts, features/organizations);
// ProductsPage.tsx is the operator's route.
import { Badge, Button, Code, Group, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { PurchaseTestResponse } from '@pluma/common/admin-purchases';
import { PRODUCTS_PAGE_SIZE, type ManagedProduct, type ProductSortKey } from '@pluma/common/products';
import { IconPlus } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListPagination } from '../../ui/ListPagination';
import { ListResults } from '../../ui/ListResults';
import { ListTable } from '../../ui/ListTable';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { Modal } from '../../ui/Modal';
import { PageHeader } from '../../ui/PageHeader';
import { SearchInput } from '../../ui/SearchInput';
import { SortableTh } from '../../ui/SortableTh';
import { useListControls } from '../../ui/use-list-controls';
import { useErrorHandler } from '../../ui/use-error-handler';
import type { ProductScope } from './product-scope';
import { testProductWebhook, useProductList } from './products-api';
import { formatCurrency, formatNumber } from '../../i18n/format';

const SORTABLE: ProductSortKey[] = ['product_id', 'name', 'word_amount', 'price'];

export const formatMoney = (amount: number, lang: string) => formatCurrency(amount, lang);

/** The product list of `scope`; `canAdd`: the caller may create products there (the server decides the rest). */
export function ProductsScreen({ scope, canAdd }: { scope: ProductScope; canAdd: boolean }) {
  const { t, i18n } = useTranslation('admin-products');
  const handleError = useErrorHandler();
  const [sort, setSort] = useState<ProductSortKey>('name');
  const [direction, setDirection] = useState<'asc' | 'desc'>('asc');
  const { search, setSearch, query, page, setPage, pageCount } = useListControls(PRODUCTS_PAGE_SIZE, [sort, direction]);
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
  };

  const pages = pageCount(list.data?.total);
  return (
    <Stack>
      <PageHeader
        title={t('list.title')}
        actions={
          canAdd && (
            <Button component={Link} to={scope.newPath} leftSection={<IconPlus size={16} aria-hidden />}>
              {t('list.add')}
            </Button>
          )
        }
      />
      <SearchInput label={t('list.search')} value={search} onChange={setSearch} maw={360} data-testid="products-search" />
      <ListResults
        list={list}
        isEmpty={(data) => data.products.length === 0}
        loading={<Skeleton height={200} data-testid="products-loading" />}
        failed={<LoadErrorAlert title={t('list.loadError')} onRetry={() => void list.refetch()} retryLabel={t('retry')} />}
        empty={<Text data-testid="products-empty">{t('list.empty')}</Text>}
      >
        {({ products }) => (
          <ListTable
            minWidth={720}
            highlightOnHover
            data-testid="products-table"
            head={
              <>
                {SORTABLE.map((column) => (
                  <SortableTh
                    key={column}
                    label={t(`list.columns.${column}`)}
                    active={sort === column}
                    direction={direction}
                    onSort={() => onSort(column)}
                    data-testid={`sort-${column}`}
                  />
                ))}
                <Table.Th>{t('list.columns.kind')}</Table.Th>
                <Table.Th>{t('list.columns.available')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('list.columns.actions')}</VisuallyHidden>
                </Table.Th>
              </>
            }
          >
            {products.map((product) => (
              <Table.Tr key={product.product_id} data-testid="product-row">
                <Table.Td>#{product.product_id}</Table.Td>
                <Table.Td>{product.name}</Table.Td>
                <Table.Td>{product.word_amount === null ? t('list.unlimited') : formatNumber(product.word_amount, i18n.language)}</Table.Td>
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
                    {canAdd && scope.webhookTest && product.webhook_url && (
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
                      <Button size="xs" variant="default" component={Link} to={scope.editPath(product.product_id)} aria-label={t('list.editNamed', { name: product.name })}>
                        {t('list.edit')}
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListResults>
      <ListPagination total={pages} value={page} onChange={setPage} siblings={1} boundaries={1} getControlProps={(control) => ({ 'aria-label': t(`list.page.${control}`) })} />
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
