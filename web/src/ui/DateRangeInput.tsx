// A date range picker (spec part 1 §9: date inputs YYYY-MM-DD; analytics, customers and purchases filter by
// a range): Mantine's DatePickerInput type="range" in the interface language. The value is two YYYY-MM-DD
// days; a range is reported only once both ends are chosen.
import '@mantine/dates/styles.layer.css';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import type { DateRange } from '@pluma/common/rules/date-range';
import 'dayjs/locale/es';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  label: string;
  value: DateRange;
  onChange: (range: DateRange) => void;
  'data-testid'?: string;
}

export function DateRangeInput({ label, value, onChange, 'data-testid': testId }: Props) {
  const { i18n } = useTranslation();
  // While the second day is being picked the picker holds a half range of its own.
  const [draft, setDraft] = useState<[string | null, string | null] | null>(null);
  return (
    <DatesProvider settings={{ locale: i18n.language, firstDayOfWeek: i18n.language === 'es' ? 1 : 0 }}>
      <DatePickerInput
        type="range"
        label={label}
        valueFormat="YYYY-MM-DD"
        value={draft ?? [value.start_date, value.end_date]}
        onChange={(next) => {
          const [start, end] = next as [string | null, string | null];
          if (start && end) {
            setDraft(null);
            onChange({ start_date: start, end_date: end });
          } else setDraft([start, end]);
        }}
        onDropdownClose={() => setDraft(null)}
        allowSingleDateInRange
        data-testid={testId}
      />
    </DatesProvider>
  );
}
