// /admin/products/{id}/edit and /admin/products/new (spec part 1 §2 "Product form", §4, §5): every field of
// the form, the unlimited toggle, subscription defaults, a free trial by days or by end date, the Stripe
// and lead-connector sections and the limits. Save collects the form's errors and shows 'Validation
// Errors:' with the list, plus the server's per-field errors of a 400. Non-numeric id → POST, numeric → PUT.
// The same form edits an organization's products for its Admin (product-scope.ts): its Stripe section then
// lists the organization's own Stripe catalog (the server reads it with the organization's keys).
// ProductFormPage.tsx is the operator's route.
import { Alert, Button, Card, Group, List, NumberInput, SegmentedControl, Select, Skeleton, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { SUBSCRIPTION_PERIODS, type ManagedProduct, type SubscriptionPeriod } from '@pluma/common/products';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { showSuccess } from '../../ui/alerts';
import { PageHeader } from '../../ui/PageHeader';
import { useErrorHandler } from '../../ui/use-error-handler';
import {
  emptyProductForm,
  isNewProductId,
  productFormErrors,
  productFormValues,
  productPayload,
  updatePayload,
  withStripePrice,
  withSubscription,
  withUnlimited,
  type ProductFormValues,
} from './product-form';
import type { ProductScope } from './product-scope';
import { createProduct, PRODUCTS_KEY, updateProduct, useProduct } from './products-api';
import { StripeSection } from './StripeSection';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg">
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      <Stack gap="sm">{children}</Stack>
    </Card>
  );
}

const toNumber = (value: string | number | bigint): number | '' => (value === '' ? '' : Number(value));

/** The product form of `scope`, for the id in the address ('new', or a product's id). */
export function ProductFormScreen({ scope }: { scope: ProductScope }) {
  const { t } = useTranslation('admin-products');
  const { id } = useParams();
  const isNew = isNewProductId(id);
  const product = useProduct(isNew ? null : Number(id));
  const title = isNew ? t('form.newTitle') : t('form.editTitle');

  if (!isNew && product.isPending) {
    return (
      <Stack>
        <PageHeader title={title} />
        <Skeleton height={400} data-testid="product-loading" />
      </Stack>
    );
  }
  if (!isNew && product.isError) {
    return (
      <Stack>
        <PageHeader title={title} />
        <Alert color="red" role="alert" title={t('form.loadError')}>
          <Button size="xs" variant="default" component={Link} to={scope.listPath}>
            {t('form.back')}
          </Button>
        </Alert>
      </Stack>
    );
  }
  return (
    <Stack>
      <PageHeader title={title} />
      <ProductForm product={isNew ? null : (product.data ?? null)} scope={scope} />
    </Stack>
  );
}

function ProductForm({ product, scope }: { product: ManagedProduct | null; scope: ProductScope }) {
  const { t } = useTranslation('admin-products');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const [values, setValues] = useState<ProductFormValues>(() => (product ? productFormValues(product) : emptyProductForm()));
  const [problems, setProblems] = useState<string[]>([]);
  const set = <K extends keyof ProductFormValues>(key: K, value: ProductFormValues[K]) => setValues((current) => ({ ...current, [key]: value }));

  const save = useMutation({
    mutationFn: (form: ProductFormValues) => (product ? updateProduct(updatePayload(product.product_id, form)) : createProduct(productPayload(form))),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: PRODUCTS_KEY });
      showSuccess(t('form.saved', { name: saved.name }));
      void navigate(scope.listPath);
    },
    onError: (error) => {
      // A 400 names its fields, already in the user's language: listed under 'Validation Errors:'.
      if (error instanceof ApiError && error.status === 400 && Object.keys(error.details).length > 0) {
        setProblems(Object.entries(error.details).map(([field, text]) => `${t(`form.fields.${field}`, { defaultValue: field })}: ${text}`));
        return;
      }
      handleError(error, { showValidation: true });
    },
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const errors = productFormErrors(values);
    setProblems(errors.map((key) => t(`form.errors.${key}`)));
    if (errors.length === 0) save.mutate(values);
  };

  const numberField = (key: 'price' | 'sale_price' | 'word_amount' | 'free_trial_words' | 'subscription_interval' | 'expiration_days' | 'free_trial_length' | 'user_limit' | 'limit_per_user', extra: Partial<React.ComponentProps<typeof NumberInput>> = {}) => (
    <NumberInput label={t(`form.fields.${key}`)} value={values[key]} onChange={(value) => set(key, toNumber(value))} min={0} data-testid={`product-${key}`} {...extra} />
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        {problems.length > 0 && (
          <Alert color="red" role="alert" title={t('form.validationErrors')} data-testid="validation-errors">
            <List size="sm">
              {problems.map((problem) => (
                <List.Item key={problem}>{problem}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        <Section title={t('form.sections.product')}>
          <TextInput label={t('form.fields.name')} value={values.name} onChange={(e) => set('name', e.currentTarget.value)} required data-testid="product-name" />
          <Textarea label={t('form.fields.description')} value={values.description} onChange={(e) => set('description', e.currentTarget.value)} autosize minRows={3} required data-testid="product-description" />
          <TextInput label={t('form.fields.short_description')} value={values.short_description} onChange={(e) => set('short_description', e.currentTarget.value)} />
          <Group grow align="flex-start">
            {numberField('price', { prefix: '$', decimalScale: 2, required: true })}
            {numberField('sale_price', { prefix: '$', decimalScale: 2 })}
          </Group>
          <Switch label={t('form.fields.available')} checked={values.available} onChange={(e) => set('available', e.currentTarget.checked)} />
        </Section>

        <Section title={t('form.sections.words')}>
          <Switch label={t('form.fields.unlimited')} checked={values.unlimited} onChange={(e) => setValues(withUnlimited(values, e.currentTarget.checked))} data-testid="product-unlimited" />
          {!values.unlimited && numberField('word_amount', { allowDecimal: false })}
          {numberField('free_trial_words', { allowDecimal: false })}
          {numberField('expiration_days', { allowDecimal: false })}
        </Section>

        <Section title={t('form.sections.subscription')}>
          <Switch label={t('form.fields.is_subscription')} checked={values.is_subscription} onChange={(e) => setValues(withSubscription(values, e.currentTarget.checked))} data-testid="product-subscription" />
          {values.is_subscription && (
            <Group grow align="flex-start">
              {numberField('subscription_interval', { allowDecimal: false, min: 1 })}
              <Select
                label={t('form.fields.subscription_period')}
                data={SUBSCRIPTION_PERIODS.map((p) => ({ value: p, label: t(`form.periods.${p}`) }))}
                value={values.subscription_period}
                onChange={(value) => set('subscription_period', (value as SubscriptionPeriod | null) ?? null)}
                data-testid="product-subscription_period"
              />
            </Group>
          )}
          <div>
            <Text size="sm" fw={500} mb={4} id="trial-kind">
              {t('form.fields.trial')}
            </Text>
            <SegmentedControl
              aria-labelledby="trial-kind"
              value={values.trial}
              onChange={(value) => set('trial', value as ProductFormValues['trial'])}
              data={[
                { value: 'none', label: t('form.trial.none') },
                { value: 'days', label: t('form.trial.days') },
                { value: 'date', label: t('form.trial.date') },
              ]}
            />
          </div>
          {values.trial === 'days' && numberField('free_trial_length', { allowDecimal: false, min: 1 })}
          {values.trial === 'date' && (
            <TextInput
              type="date"
              label={t('form.fields.free_trial_end')}
              value={values.free_trial_end}
              onChange={(e) => set('free_trial_end', e.currentTarget.value)}
              data-testid="product-free_trial_end"
            />
          )}
        </Section>

        <Section title={t('form.sections.stripe')}>
          <StripeSection
            productId={values.stripe_product_id}
            priceId={values.stripe_price_id}
            onProduct={(stripeProductId) => setValues({ ...values, stripe_product_id: stripeProductId, stripe_price_id: '' })}
            onPrice={(price) => setValues(withStripePrice(values, price))}
          />
        </Section>

        <Section title={t('form.sections.leadConnector')}>
          <TextInput label={t('form.fields.webhook_url')} value={values.webhook_url} onChange={(e) => set('webhook_url', e.currentTarget.value)} placeholder="https://" data-testid="product-webhook_url" />
          <TextInput label={t('form.fields.product_sku')} value={values.product_sku} onChange={(e) => set('product_sku', e.currentTarget.value)} />
        </Section>

        <Section title={t('form.sections.limits')}>
          <Group grow align="flex-start">
            {numberField('user_limit', { allowDecimal: false, min: 1 })}
            {numberField('limit_per_user', { allowDecimal: false, min: 1 })}
          </Group>
        </Section>

        <Group justify="flex-end">
          <Button variant="default" component={Link} to={scope.listPath}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="product-save">
            {t('form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
