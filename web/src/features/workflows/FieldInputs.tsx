// The values form of a workflow (spec part 2 §5 "Workflow field values: all required; select fields from
// bracketed options separated by slash"): a dropdown for a select, a number input for a number, text for the
// rest, in the fields' order, each with its inline message. The same rule as the server (template-fields.ts).
import { Select, Stack, TextInput } from '@mantine/core';
import { checkFieldValue, type TemplateField } from '@pluma/common/rules/template-fields';
import { useTranslation } from 'react-i18next';

export type FieldValues = Record<string, string>;

/** Per field name, the message key of its problem; {} when every value may be saved. */
export function fieldProblems(fields: readonly TemplateField[], values: FieldValues): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const problem = checkFieldValue(field, values[field.name]);
    if (problem) problems[field.name] = problem;
  }
  return problems;
}

interface FieldInputsProps {
  fields: readonly TemplateField[];
  values: FieldValues;
  onChange: (values: FieldValues) => void;
  /** Show the problems (after a first save attempt). */
  showErrors: boolean;
  /** Messages from the server, by field name (already worded). */
  serverErrors?: Record<string, string>;
  disabled?: boolean;
}

export function FieldInputs({ fields, values, onChange, showErrors, serverErrors = {}, disabled }: FieldInputsProps) {
  const { t } = useTranslation('workflows');
  const problems = fieldProblems(fields, values);
  const errorOf = (name: string) => serverErrors[name] ?? (showErrors && problems[name] ? t(`fieldError.${problems[name]}`) : undefined);
  const set = (name: string, value: string) => onChange({ ...values, [name]: value });
  return (
    <Stack gap="sm" data-testid="workflow-fields">
      {[...fields]
        .sort((a, b) => a.order - b.order)
        .map((field) =>
          field.type === 'select' ? (
            <Select
              key={field.name}
              label={field.label}
              data={field.options}
              value={values[field.name] || null}
              onChange={(v) => set(field.name, v ?? '')}
              error={errorOf(field.name)}
              disabled={disabled}
              withAsterisk
              allowDeselect={false}
              data-testid={`field-${field.name}`}
            />
          ) : (
            <TextInput
              key={field.name}
              label={field.label}
              type={field.type === 'number' ? 'number' : 'text'}
              inputMode={field.type === 'number' ? 'decimal' : undefined}
              value={values[field.name] ?? ''}
              onChange={(e) => set(field.name, e.currentTarget.value)}
              error={errorOf(field.name)}
              disabled={disabled}
              withAsterisk
              data-testid={`field-${field.name}`}
            />
          ),
        )}
    </Stack>
  );
}
