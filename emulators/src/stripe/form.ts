// Stripe's request encoding: application/x-www-form-urlencoded with bracket nesting, as the `stripe`
// SDK and Stripe.js write it: `items[0][price]=price_1`, `expand[]=latest_invoice`, `metadata[k]=v`.
// `qs` is not installed (stripe 23 has no dependencies), and the subset Stripe uses is small.

export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type Params = Record<string, FormValue>;

/** Parses a urlencoded body or query string into nested objects and arrays (values stay strings). */
export function parseForm(text: string): Params {
  const root: Params = {};
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    const key = decode(rawKey);
    const value = decode(rawValue);
    const head = key.split('[')[0];
    const rest = [...key.slice(head.length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]);
    assign(root, [head, ...rest], value);
  }
  return toArrays(root) as Params;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

type Node = { [key: string]: FormValue };

// Arrays are built as objects keyed by index ('' = append) and converted once at the end.
function assign(target: Node, path: string[], value: string) {
  let node = target;
  for (let i = 0; i < path.length - 1; i++) {
    let key = path[i];
    if (key === '') key = String(Object.keys(node).length);
    const next = node[key];
    if (next === undefined || typeof next === 'string') node[key] = {};
    node = node[key] as Node;
  }
  let last = path[path.length - 1];
  if (last === '') last = String(Object.keys(node).length);
  node[last] = value;
}

function toArrays(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted: Node = {};
  for (const key of keys) converted[key] = toArrays(value[key]);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => converted[k]);
  }
  return converted;
}

// Readers that coerce the string values the way Stripe's API does.

export function str(params: Params, name: string): string | undefined {
  const value = params[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function int(params: Params, name: string): number | undefined {
  const value = str(params, name);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw new ParamError(`Invalid integer: ${value}`, name);
  return Number(value);
}

export function bool(params: Params, name: string): boolean | undefined {
  const value = str(params, name);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw new ParamError(`Invalid boolean: ${value}`, name);
  return value === 'true';
}

export function obj(params: Params, name: string): Params {
  const value = params[name];
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Params) : {};
}

export function list(params: Params, name: string): FormValue[] {
  const value = params[name];
  if (Array.isArray(value)) return value;
  // A lone `expand=foo` or an object keyed by non-numeric keys is still one entry.
  return value === undefined || value === '' ? [] : [value];
}

export function strings(params: Params, name: string): string[] {
  return list(params, name).filter((v): v is string => typeof v === 'string' && v !== '');
}

/** `metadata[k]=v` pairs; an empty value removes the key on update, as Stripe does. */
export function metadata(params: Params, current: Record<string, string> = {}): Record<string, string> {
  if (params.metadata === '') return {};
  const next = { ...current };
  for (const [k, v] of Object.entries(obj(params, 'metadata'))) {
    if (typeof v !== 'string') continue;
    if (v === '') delete next[k];
    else next[k] = v;
  }
  return next;
}

/** A parameter that cannot be read; the server turns it into Stripe's 400. */
export class ParamError extends Error {
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}
