// The prompt box's token counter (spec part 2 §5): characters ÷ 4 rounded, refreshed 1000 ms after typing stops.
import { useDebouncedValue } from '@mantine/hooks';
import { TOKEN_COUNTER_DEBOUNCE_MS } from '@pluma/common/constants';
import { estimateTokens } from '@pluma/common/rules/token-estimate';

export function useTokenEstimate(text: string, debounceMs: number = TOKEN_COUNTER_DEBOUNCE_MS): number {
  const [settled] = useDebouncedValue(text, debounceMs);
  return estimateTokens(settled);
}
