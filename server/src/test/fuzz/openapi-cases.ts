// Turns the OpenAPI document into fuzz cases: every operation, every parameter (path, query, body
// property at any depth) × every hostile value. Everything is derived from the document, so a new route
// is fuzzed without touching the test.
import { HOSTILE_JSON_VALUES, HOSTILE_RAW_BODIES, HOSTILE_TEXT_VALUES, type HostileValue } from './hostile-values';

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  pattern?: string;
  format?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

interface OpenApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  /** Present on signed-in routes (platform/auth/guard.ts signedIn): bearer authentication. */
  security?: unknown[];
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface FuzzRequest {
  method: string;
  url: string;
  query?: Record<string, string | string[]>;
  payload?: string;
  headers?: Record<string, string>;
}

export interface FuzzCase {
  /** e.g. "PUT /api/conversations" */
  operation: string;
  /** e.g. "body.tags[0]", "query.limit", "path.id", "raw body" */
  slot: string;
  value: string;
  /** The value must be refused (4xx) here: see HostileValue.mustRefuse. */
  mustRefuse: boolean;
  request: FuzzRequest;
}

/** Ids of records that exist, used as the value of required references while another field is fuzzed. */
export type KnownIds = Record<string, number>;

const INT32_MAX = 2_147_483_647;
const STRING_CANDIDATES = ['fuzz-value', 'fuzz@example.com', '5551234567', 'https://example.com/fuzz', '2000-01-01', 'fuzz-value-long-enough-1'];

/** A JSON-schema pattern as a RegExp: Unicode mode when it compiles so, else plain (zod emits JS sources). */
function compilePattern(source: string): RegExp {
  try {
    return new RegExp(source, 'u');
  } catch {
    return new RegExp(source);
  }
}

/**
 * encodeURIComponent that never throws: a lone surrogate (which it refuses) goes as its WTF-8 bytes, as a
 * client with a sloppy encoder would send it, so the server's URL decoding meets it too.
 */
export function encodeText(value: string): string {
  return value
    .split(/([\uD800-\uDBFF][\uDC00-\uDFFF]|[\uD800-\uDFFF])/)
    .map((part) => {
      if (part.length !== 1 || part < '\uD800' || part > '\uDFFF') return encodeURIComponent(part);
      const unit = part.charCodeAt(0);
      return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    })
    .join('');
}

export function createCaseBuilder(doc: OpenApiDocument, knownIds: KnownIds) {
  const resolve = (schema: JsonSchema | undefined): JsonSchema => {
    let s = schema ?? {};
    for (let i = 0; s.$ref && i < 20; i++) s = doc.components?.schemas?.[s.$ref.replace('#/components/schemas/', '')] ?? {};
    const options = s.anyOf ?? s.oneOf;
    if (options) return resolve(options.find((o) => resolve(o).type !== 'null') ?? options[0]);
    if (s.allOf?.length) return resolve(s.allOf[0]);
    return s;
  };
  const typeOf = (schema: JsonSchema | undefined): string | undefined => {
    const t = resolve(schema).type;
    return Array.isArray(t) ? t.find((x) => x !== 'null') : t;
  };

  /** A valid-looking value for a schema; references point at existing records when `knownIds` names them. */
  function sample(schema: JsonSchema | undefined, name = ''): unknown {
    const s = resolve(schema);
    if (s.const !== undefined) return s.const;
    if (s.enum?.length) return s.enum[0];
    switch (typeOf(s)) {
      case 'boolean':
        return false;
      case 'integer':
      case 'number':
        // A reference to no record (the largest valid id) unless the name is a record we know.
        return knownIds[name] ?? Math.min(s.maximum ?? INT32_MAX, INT32_MAX);
      case 'array':
        return Array.from({ length: Math.max(s.minItems ?? 0, 1) }, () => sample(s.items, name));
      case 'object': {
        const out: Record<string, unknown> = {};
        for (const key of s.required ?? []) out[key] = sample(s.properties?.[key], key);
        return out;
      }
      case 'string':
        return sampleString(s, name);
      default:
        return 'fuzz-value';
    }
  }

  function sampleString(s: JsonSchema, name: string): string {
    if (s.format === 'date') return '2000-01-01';
    if (s.format === 'date-time') return '2000-01-01T00:00:00.000Z';
    const byName = /email/i.test(name) ? ['fuzz@example.com'] : /phone/i.test(name) ? ['5551234567'] : [];
    const pattern = s.pattern ? compilePattern(s.pattern) : null;
    const fits = (v: string) => v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity) && (!pattern || pattern.test(v));
    return [...byName, ...STRING_CANDIDATES].find(fits) ?? 'x'.repeat(Math.max(s.minLength ?? 1, 1));
  }

  /** Every place a value can go in a body: the body itself, object properties and first array items, 3 deep. */
  function bodySlots(schema: JsonSchema, path: (string | number)[] = [], depth = 0): { path: (string | number)[]; schema: JsonSchema }[] {
    const s = resolve(schema);
    const slots = [{ path, schema: s }];
    if (depth >= 3) return slots;
    const type = typeOf(s);
    if (type === 'object') {
      for (const [key, child] of Object.entries(s.properties ?? {})) slots.push(...bodySlots(child, [...path, key], depth + 1));
    } else if (type === 'array' && s.items) {
      slots.push(...bodySlots(s.items, [...path, 0], depth + 1));
    }
    return slots;
  }

  /** A copy of `base` with `value` at `path`, creating the containers on the way from the schema. */
  function withValue(base: unknown, schema: JsonSchema, path: (string | number)[], value: unknown): unknown {
    if (path.length === 0) return value;
    const [head, ...rest] = path;
    const s = resolve(schema);
    if (typeof head === 'number') {
      const list = Array.isArray(base) ? [...(base as unknown[])] : [];
      list[head] = withValue(list[head] ?? sample(s.items), s.items ?? {}, rest, value);
      return list;
    }
    const obj = base && typeof base === 'object' && !Array.isArray(base) ? { ...(base as Record<string, unknown>) } : {};
    const child = s.properties?.[head] ?? {};
    obj[head] = withValue(obj[head] ?? sample(child, head), child, rest, value);
    return obj;
  }

  const refuses = (v: HostileValue, schema: JsonSchema | undefined) =>
    v.mustRefuse === 'always' || (v.mustRefuse === 'where-numeric' && ['integer', 'number'].includes(typeOf(schema) ?? ''));

  const asText = (value: unknown): string | string[] =>
    Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value : JSON.stringify(value);

  /** All cases of one operation. */
  function casesFor(method: string, path: string, operation: OpenApiOperation): FuzzCase[] {
    const name = `${method.toUpperCase()} ${path}`;
    const params = operation.parameters ?? [];
    const pathParams = params.filter((p) => p.in === 'path');
    const queryParams = params.filter((p) => p.in === 'query');
    const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
    const baseBody = bodySchema ? sample(bodySchema) : undefined;

    const build = (over: { path?: Record<string, string>; query?: Record<string, string | string[]>; body?: unknown; raw?: { contentType: string; body: string } }): FuzzRequest => {
      let url = path;
      for (const p of pathParams) {
        const v = over.path?.[p.name] ?? String(sample(p.schema, p.name));
        url = url.replace(`{${p.name}}`, encodeText(v));
      }
      // The fuzzed query value is written into the URL by hand (encodeText); the inject option's
      // URLSearchParams would turn a lone surrogate into U+FFFD before the server saw it.
      const query: Record<string, string | string[]> = {};
      for (const q of queryParams) if (q.required && !(q.name in (over.query ?? {}))) query[q.name] = String(sample(q.schema, q.name));
      const fuzzed = Object.entries(over.query ?? {}).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((one) => `${encodeText(k)}=${encodeText(one)}`));
      if (fuzzed.length) url += `?${fuzzed.join('&')}`;
      const request: FuzzRequest = { method: method.toUpperCase(), url, query };
      if (over.raw) {
        request.payload = over.raw.body;
        request.headers = { 'content-type': over.raw.contentType };
      } else if (over.body !== undefined || baseBody !== undefined) {
        request.payload = JSON.stringify(over.body !== undefined ? over.body : baseBody);
        request.headers = { 'content-type': 'application/json' };
      }
      return request;
    };

    const cases: FuzzCase[] = [];
    for (const p of pathParams) {
      // A dot segment is no value: every URL parser resolves it (`/api/users/admin/..` is `/api/users/`, even
      // as %2E%2E), so it would call another route, e.g. delete the caller's account and turn every later
      // case of the role into a 401.
      for (const v of HOSTILE_TEXT_VALUES.filter((h) => h.value !== '..')) {
        const text = asText(v.value);
        cases.push({ operation: name, slot: `path.${p.name}`, value: v.label, mustRefuse: refuses(v, p.schema), request: build({ path: { [p.name]: Array.isArray(text) ? text.join(',') : text } }) });
      }
    }
    for (const q of queryParams) {
      for (const v of HOSTILE_TEXT_VALUES) {
        cases.push({ operation: name, slot: `query.${q.name}`, value: v.label, mustRefuse: refuses(v, q.schema), request: build({ query: { [q.name]: asText(v.value) } }) });
      }
    }
    // Parameters no route declares are ignored, never a failure.
    cases.push({ operation: name, slot: 'query.(undeclared)', value: 'NUL', mustRefuse: false, request: build({ query: { fuzz_undeclared: '\u0000' } }) });
    if (bodySchema) {
      for (const slot of bodySlots(bodySchema)) {
        const label = slot.path.length ? `body.${slot.path.map((k) => (typeof k === 'number' ? `[${k}]` : k)).join('.')}` : 'body';
        for (const v of HOSTILE_JSON_VALUES) {
          cases.push({ operation: name, slot: label, value: v.label, mustRefuse: refuses(v, slot.schema), request: build({ body: withValue(baseBody, bodySchema, slot.path, v.value) }) });
        }
      }
    }
    // Every route that can take a body gets bodies that are not what it expects (multipart uploads included).
    if (method !== 'get' && method !== 'head') {
      for (const raw of HOSTILE_RAW_BODIES) {
        cases.push({ operation: name, slot: 'raw body', value: raw.label, mustRefuse: false, request: build({ raw }) });
      }
    }
    return cases;
  }

  return { casesFor, sample };
}

/** Every operation of the document as [method, path, operation]. */
export function operationsOf(doc: OpenApiDocument): [string, string, OpenApiOperation][] {
  const out: [string, string, OpenApiOperation][] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(ops)) {
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) out.push([method, path, operation]);
    }
  }
  return out;
}
