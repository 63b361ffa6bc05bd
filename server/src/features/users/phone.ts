// Phone numbers are stored without separators so lookups can use the phone index.
// Signup keeps a leading '+' (spec part 1 §5 allows one); profile edits keep 10 digits (normalizeProfilePhone).

/** '+52 555-123.4567' → '+525551234567'; '555 123 4567' → '5551234567'. */
export function storedSignupPhone(raw: string): string {
  const trimmed = raw.trim();
  const digits = trimmed.replace(/\D/g, '');
  return trimmed.startsWith('+') ? `+${digits}` : digits;
}

/** The stored forms a typed number may have: as typed (normalized), digits only, and with '+'. */
export function phoneLookupCandidates(raw: string): string[] {
  const digits = raw.replace(/\D/g, '');
  if (!digits) return [];
  return [...new Set([storedSignupPhone(raw), digits, `+${digits}`])];
}
