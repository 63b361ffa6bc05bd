// The JSON of a passkey (issue 33 item 3): its name and dates; never its key, credential id or counter.
import type { PasskeyView } from '@pluma/common/auth';
import type { PasskeyRow } from './webauthn';

export function presentPasskey(row: PasskeyRow): PasskeyView {
  return { passkey_id: row.passkeyId, name: row.name, createdAt: row.createdAt.toISOString(), last_used_at: row.lastUsedAt?.toISOString() ?? null };
}
