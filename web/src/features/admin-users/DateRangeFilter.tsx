// The customers list's sign-up date range (spec part 1 §9: the current month by default; inputs YYYY-MM-DD):
// Mantine's DatePickerInput type="range" in the interface language, reported once both ends are chosen;
// clearing it lists every date.
import '@mantine/dates/styles.layer.css';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import 'dayjs/locale/es';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface OptionalRange {
  start_date?: string;
  end_date?: string;
}

export function DateRangeFilter({ label, value, onChange }: { label: string; value: OptionalRange; onChange: (range: OptionalRange) => void }) {
  const { i18n } = useTranslation();
  const [draft, setDraft] = useState<[string | null, string | null] | null>(null);
  return (
    <DatesProvider settings={{ locale: i18n.language, firstDayOfWeek: i18n.language === 'es' ? 1 : 0 }}>
      <DatePickerInput
        type="range"
        label={label}
        valueFormat="YYYY-MM-DD"
        clearable
        value={draft ?? [value.start_date ?? null, value.end_date ?? null]}
        onChange={(next) => {
          const [start, end] = next as [string | null, string | null];
          if (!start && !end) {
            setDraft(null);
            onChange({});
          } else if (start && end) {
            setDraft(null);
            onChange({ start_date: start, end_date: end });
          } else setDraft([start, end]);
        }}
        onDropdownClose={() => setDraft(null)}
        allowSingleDateInRange
        data-testid="customers-date-range"
      />
    </DatesProvider>
  );
}
