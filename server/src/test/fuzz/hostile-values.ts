// Hostile values for the OpenAPI fuzz test (test/run-fuzz.ts): a fixed, reproducible list, so a
// failure names the exact value and reruns the same way.

export interface HostileValue {
  label: string;
  value: unknown;
  /**
   * Must be refused (4xx) wherever it is sent: control characters in any text, and numbers outside
   * PostgreSQL's integer range where a number is expected (docs/decisions.md "Bad input").
   */
  mustRefuse?: 'always' | 'where-numeric';
}

const LONG = 'x'.repeat(100_000);

/** Values sent in JSON bodies: wrong types, out-of-range numbers, control characters, odd text. */
export const HOSTILE_JSON_VALUES: HostileValue[] = [
  { label: 'int32 max + 1', value: 2_147_483_648, mustRefuse: 'where-numeric' },
  { label: 'int32 min - 1', value: -2_147_483_649, mustRefuse: 'where-numeric' },
  { label: 'unsafe integer', value: 2 ** 53 + 2, mustRefuse: 'where-numeric' },
  { label: '1e308', value: 1e308, mustRefuse: 'where-numeric' },
  { label: 'int32 max', value: 2_147_483_647 },
  { label: 'zero', value: 0 },
  { label: 'minus one', value: -1 },
  { label: 'float', value: 1.5 },
  { label: 'tiny float', value: 5e-324 },
  { label: 'numeric string out of range', value: '2147483648', mustRefuse: 'where-numeric' },
  { label: 'exponent string', value: '1e308', mustRefuse: 'where-numeric' },
  { label: 'NaN string', value: 'NaN' },
  { label: 'Infinity string', value: 'Infinity' },
  { label: 'hex string', value: '0x10' },
  { label: 'empty string', value: '' },
  { label: 'blank string', value: '   ' },
  { label: 'NUL', value: '\u0000', mustRefuse: 'always' },
  { label: 'NUL inside text', value: 'abc\u0000def', mustRefuse: 'always' },
  { label: 'C0 controls', value: 'a\u0001\u0007\u0008\u001b[31mb', mustRefuse: 'always' },
  { label: 'DEL and C1', value: 'a\u007f\u0085b' },
  // Lone surrogates (half a UTF-16 pair): no UTF-8 form, so encodeURIComponent and Buffer conversions
  // throw or mangle them. In a URL they go as their WTF-8 bytes (openapi-cases.ts encodeText).
  { label: 'lone high surrogate', value: '\uD800' },
  { label: 'lone low surrogate inside', value: 'a\uDC00b' },
  { label: '100k characters', value: LONG },
  // Astral characters: two UTF-16 units each, so length checks and slices can split them.
  { label: 'emoji, ZWJ and astral', value: '👨‍👩‍👧‍👦 😀 𝕏' },
  { label: 'RTL override', value: '\u202Eevil\u202C' },
  { label: 'path traversal', value: '../../etc/passwd' },
  { label: 'SQL-looking', value: "' OR 1=1; DROP TABLE users; --" },
  { label: 'percent-encoded NUL', value: '%00' },
  { label: 'year 0 date', value: '0000-01-01' },
  { label: 'year 10000 date', value: '10000-01-01' },
  { label: 'negative year date', value: '-0001-01-01' },
  { label: 'impossible date', value: '2021-02-30' },
  { label: 'forged cursor', value: Buffer.from(JSON.stringify(['updatedAt_desc', '0000-01-01T00:00:00Z', 2_147_483_648])).toString('base64url') },
  { label: 'cursor with huge year', value: Buffer.from(JSON.stringify(['createdAt_desc', '+275760-09-13T00:00:00Z', 1])).toString('base64url') },
  { label: 'null', value: null },
  { label: 'true', value: true },
  { label: 'false', value: false },
  { label: 'empty array', value: [] },
  { label: 'array of numbers', value: [1, 2, 2_147_483_648] },
  { label: 'array of strings', value: ['a', '\u0000'] },
  { label: 'big array', value: Array.from({ length: 2_000 }, (_, i) => `item${i}`) },
  { label: 'empty object', value: {} },
  // Parsed, so __proto__ is an own key as a JSON body would make it, not the literal's prototype.
  { label: 'operator object', value: JSON.parse('{"$gt":"","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}') as unknown },
  { label: 'nested object', value: { a: { b: { c: [{ d: '\u0000' }] } } } },
];

/** Values sent in a query string or a path segment: only text exists there, so these are the text forms. */
export const HOSTILE_TEXT_VALUES: HostileValue[] = [
  ...HOSTILE_JSON_VALUES.filter((v) => typeof v.value === 'string' || typeof v.value === 'number').map((v) => ({
    ...v,
    value: typeof v.value === 'number' ? String(v.value) : v.value,
  })),
  { label: 'negative zero', value: '-0' },
  { label: 'leading space number', value: ' 1' },
  { label: 'number with suffix', value: '1abc' },
  { label: 'huge digits', value: '9'.repeat(400), mustRefuse: 'where-numeric' },
  { label: 'dot dot', value: '..' },
  { label: 'encoded slash', value: 'a/b' },
  { label: 'json text', value: '{"$gt":""}' },
  // Repeated keys arrive as an array (?a=1&a=2).
  { label: 'repeated parameter', value: ['1', '2'] },
];

/** Whole bodies that are not what any route expects, including ones that are not JSON at all. */
export const HOSTILE_RAW_BODIES: { label: string; contentType: string; body: string }[] = [
  { label: 'truncated JSON', contentType: 'application/json', body: '{"a":' },
  { label: 'JSON with NUL escape', contentType: 'application/json', body: '{"name":"\\u0000"}' },
  { label: 'JSON array', contentType: 'application/json', body: '[1,2,3]' },
  { label: 'JSON string', contentType: 'application/json', body: '"text"' },
  { label: 'JSON null', contentType: 'application/json', body: 'null' },
  { label: 'plain text', contentType: 'text/plain', body: 'hello' },
  { label: 'multipart without boundary', contentType: 'multipart/form-data', body: 'garbage' },
  { label: 'multipart, bad part', contentType: 'multipart/form-data; boundary=X', body: '--X\r\nContent-Disposition: form-data; name="file"\r\n\r\n\u0000\r\n--X' },
  { label: 'form urlencoded', contentType: 'application/x-www-form-urlencoded', body: 'a=1&b=%00' },
];
