// spec part 1 §2 Thank-you / §9: dates show as DD MMM YYYY HH:mm (local time), the month's short name
// in the interface language ("05 Mar 2026 14:07", "05 mar 2026 14:07").
import { formatSpecDateTime } from '../../i18n/format';

export const formatOrderDate = (iso: string, lang: string): string => formatSpecDateTime(iso, lang);
