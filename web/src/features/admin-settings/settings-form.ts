// The settings form's rules, pure so they are unit-tested: which changes a Save sends (only changed keys,
// never a masked secret — spec part 1 §4 and DESIGN.md §1 "secrets ... masked") and which values are invalid
// (the same check the server runs, common/src/appconfig.ts isValidConfigValue).
import { CONFIG_KEYS, isConfigKey, isMaskedSecret, isValidConfigValue, maskSecret, type ConfigEntry, type ConfigKey } from '@pluma/common/appconfig';

export type ConfigValues = Partial<Record<ConfigKey, string>>;

/** The keys whose value differs from what was loaded (or revealed), as PUT /appconfig's body. */
export function changedEntries(values: ConfigValues, baseline: ConfigValues): ConfigEntry[] {
  const changes: ConfigEntry[] = [];
  for (const [key, value] of Object.entries(values) as [ConfigKey, string][]) {
    if (value === baseline[key]) continue;
    // A secret still in its masked form was never revealed nor retyped: it is not a change.
    if (CONFIG_KEYS[key].kind === 'secret' && isMaskedSecret(value)) continue;
    changes.push({ key, value });
  }
  return changes;
}

/** The changed keys whose value the server would refuse. */
export function invalidKeys(changes: ConfigEntry[]): ConfigKey[] {
  return changes.filter((c) => isConfigKey(c.key) && !isValidConfigValue(c.key, c.value)).map((c) => c.key as ConfigKey);
}

/** What a locked secret shows: the server's masked form as it came, else the last 4 characters of the value (spec part 1 §9). */
export function lockedView(value: string): string {
  return isMaskedSecret(value) ? value : maskSecret(value);
}
