// PostgreSQL refusals that are the client's fault, as API errors: a value the database cannot hold or
// compare is a 400, a referenced record that does not exist a 400 naming the field, a duplicate a 409.
// Request schemas (common/schema-kit.ts) refuse such input first; this is the net under them, so bad input
// never gets a 500. errors.ts turns the result into the response.
import { ErrorIds } from '@pluma/common/errors';
import type { MessageKey } from '@pluma/common/messages';

export interface ClientDatabaseError {
  status: 400 | 409;
  errorId: string;
  messageKey: MessageKey;
  params?: Record<string, string>;
  /** Field → message key. */
  details?: Record<string, MessageKey>;
}

interface PostgresError {
  code: string;
  detail?: string;
}

type Mapping = (pg: PostgresError) => ClientDatabaseError;

const refused = (messageKey: MessageKey): Mapping => () => ({ status: 400, errorId: ErrorIds.validation, messageKey });

/** `Key (payment_method_id)=(7) is not present in table "payment_methods".` → payment_method_id */
const keyColumn = (detail: string | undefined) => /Key \(([a-z0-9_]+)\)=/i.exec(detail ?? '')?.[1];

const SQLSTATE_TO_ERROR: Record<string, Mapping> = {
  // Data exceptions: the value cannot be read or held by the column's type.
  '22P02': refused('validation_error'), // invalid_text_representation ('abc' for an integer…)
  '22003': refused('number_out_of_range'), // numeric_value_out_of_range (an id past 2147483647…)
  '22008': refused('invalid_date'), // datetime_field_overflow (year 0, year 300000)
  '22007': refused('invalid_date'), // invalid_datetime_format
  '22021': refused('text_control_characters'), // character_not_in_repertoire: NUL in text
  '22P05': refused('text_control_characters'), // untranslatable_character: \u0000 in json
  '22001': refused('validation_error'), // string_data_right_truncation
  '2201B': refused('validation_error'), // invalid_regular_expression
  '22025': refused('validation_error'), // invalid_escape_sequence
  '54000': refused('validation_error'), // program_limit_exceeded (an index row too large)
  // Integrity.
  '23502': refused('validation_error'), // not_null_violation
  '23514': refused('validation_error'), // check_violation
  '23503': (pg) => {
    // A delete hit a row still referenced, or a body named a record that does not exist.
    if (/is still referenced/.test(pg.detail ?? '')) return { status: 409, errorId: ErrorIds.conflict, messageKey: 'record_in_use' };
    const field = keyColumn(pg.detail);
    if (!field) return { status: 400, errorId: ErrorIds.validation, messageKey: 'validation_error' };
    return { status: 400, errorId: ErrorIds.validation, messageKey: 'reference_not_found', params: { field }, details: { [field]: 'reference_not_found' } };
  },
  '23505': () => ({ status: 409, errorId: ErrorIds.conflict, messageKey: 'record_exists' }), // unique_violation
};

/**
 * The PostgreSQL error inside `err`: itself or a cause (drizzle wraps driver errors in DrizzleQueryError;
 * the PGlite thread rebuilds errors with their `code` and `detail`). Only SQLSTATEs mapped above count, so
 * Node's own five-letter codes (EPIPE…) never match.
 */
function postgresErrorOf(err: unknown): PostgresError | null {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const candidate = current as { code?: unknown; detail?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && Object.hasOwn(SQLSTATE_TO_ERROR, candidate.code)) {
      return { code: candidate.code, detail: typeof candidate.detail === 'string' ? candidate.detail : undefined };
    }
    current = candidate.cause;
  }
  return null;
}

/** The API error for a database error caused by the request's values, or null for a real failure (500). */
export function clientErrorFromDatabase(err: unknown): ClientDatabaseError | null {
  const pg = postgresErrorOf(err);
  return pg ? SQLSTATE_TO_ERROR[pg.code](pg) : null;
}
