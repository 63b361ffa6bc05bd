// A date range picker (spec part 1 §9: date inputs YYYY-MM-DD; analytics, customers and purchases filter by
// a range): Mantine's DatePickerInput type="range" in the interface language. The value is two YYYY-MM-DD
// days; a range is reported only once both ends are chosen. A clearable one (the customers list's sign-up
// range) reports {} when cleared: every date.
import '@mantine/dates/styles.layer.css';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import type { DateRange } from '@pluma/common/rules/date-range';
import 'dayjs/locale/es';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A range that may be empty (no filter). */
export type OptionalRange = Partial<DateRange>;

type Props = { label: string; 'data-testid'?: string } & (
  | { clearable?: false; value: DateRange; onChange: (range: DateRange) => void }
  | { clearable: true; value: OptionalRange; onChange: (range: OptionalRange) => void }
);

export function DateRangeInput(props: Props) {
  const { label, value, 'data-testid': testId } = props;
  const { i18n } = useTranslation();
  // While the second day is being picked the picker holds a half range of its own.
  const [draft, setDraft] = useState<[string | null, string | null] | null>(null);
  return (
    <DatesProvider settings={{ locale: i18n.language, firstDayOfWeek: i18n.language === 'es' ? 1 : 0 }}>
      <DatePickerInput
        type="range"
        label={label}
        valueFormat="YYYY-MM-DD"
        clearable={props.clearable}
        value={draft ?? [value.start_date ?? null, value.end_date ?? null]}
        onChange={(next) => {
          const [start, end] = next as [string | null, string | null];
          if (props.clearable && !start && !end) {
            setDraft(null);
            props.onChange({});
          } else if (start && end) {
            setDraft(null);
            props.onChange({ start_date: start, end_date: end });
          } else setDraft([start, end]);
        }}
        onDropdownClose={() => setDraft(null)}
        allowSingleDateInRange
        data-testid={testId}
      />
    </DatesProvider>
  );
}
