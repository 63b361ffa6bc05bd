// The apply form (spec part 2 §2 "Apply screen", §5 "Applying a template"): the template's fields sorted by
// order — a select is a dropdown, a number a number input, the rest text inputs, each with a capitalised
// label — and Generate, disabled while an answer is being written or while any field is empty. The server
// fills the prompt (POST /templates/{id}/use), also when this user may not read it; a readable prompt is
// previewed here with the same fillTemplate.
import { Button, Card, NativeSelect, NumberInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { checkFieldValue, checkFieldValues, fillTemplate } from '@pluma/common/rules/template-fields';
import type { Template, TemplateField } from '@pluma/common/templates';
import { IconSparkles } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { capitalise, useMessageText } from './field-text';

interface ApplyFormProps {
  template: Template;
  /** An answer is being written (or the conversation created): Generate waits. */
  busy: boolean;
  onGenerate: (values: Record<string, string>) => void;
}

export function ApplyForm({ template, busy, onGenerate }: ApplyFormProps) {
  const { t } = useTranslation('templates');
  const messageText = useMessageText();
  const fields = [...template.fields].sort((a, b) => a.order - b.order);
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((field) => [field.name, field.value ?? ''])));
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const problems = checkFieldValues(fields, values);
  const complete = Object.keys(problems).length === 0;
  const disabled = busy || !complete;

  const set = (field: TemplateField, value: string) => {
    setValues((current) => ({ ...current, [field.name]: value }));
    setTouched((current) => ({ ...current, [field.name]: true }));
  };
  const errorOf = (field: TemplateField) => {
    if (!touched[field.name]) return undefined;
    const problem = checkFieldValue(field, values[field.name]);
    return problem ? messageText(problem) : undefined;
  };

  return (
    <Card withBorder radius="md" padding="lg" data-testid="apply-form">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (disabled) return;
          onGenerate(values);
        }}
      >
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={2} size="h4" data-testid="apply-template-name">
              {template.name}
            </Title>
            <Text size="sm" c="dimmed">
              {template.description}
            </Text>
          </Stack>
          {fields.length === 0 && (
            <Text size="sm" c="dimmed" data-testid="apply-no-fields">
              {t('apply.noFields')}
            </Text>
          )}
          {fields.map((field) => {
            const label = capitalise(field.label);
            const common = { label, required: true, error: errorOf(field), 'data-testid': 'apply-field' };
            if (field.type === 'select')
              return (
                <NativeSelect
                  key={field.name}
                  {...common}
                  value={values[field.name] ?? ''}
                  onChange={(event) => set(field, event.currentTarget.value)}
                  data={[{ value: '', label: t('apply.choose'), disabled: true }, ...field.options.map((option) => ({ value: option, label: option }))]}
                />
              );
            if (field.type === 'number')
              return (
                <NumberInput
                  key={field.name}
                  {...common}
                  value={values[field.name] ?? ''}
                  onChange={(value) => set(field, value === '' ? '' : String(value))}
                  decimalSeparator={'.'}
                  allowNegative
                />
              );
            return <TextInput key={field.name} {...common} value={values[field.name] ?? ''} onChange={(event) => set(field, event.currentTarget.value)} />;
          })}
          {/* The prompt is the author's unless shown to others (spec part 2 §2: "prompt shown to others only if show_prompt"). */}
          {template.content !== null && complete && (
            <Stack gap={4} data-testid="apply-preview">
              <Text size="xs" fw={600} c="dimmed">
                {t('apply.preview')}
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {fillTemplate(template.content, values)}
              </Text>
            </Stack>
          )}
          <Button type="submit" disabled={disabled} loading={busy} leftSection={<IconSparkles size={16} aria-hidden />} data-testid="apply-generate">
            {t('apply.generate')}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
