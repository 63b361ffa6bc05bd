// Storage keys are ours (never a user's file name), but both backends still refuse anything that could
// escape the files folder or the bucket prefix: absolute paths, '..', backslashes, empty segments.
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export class StorageKeyError extends Error {
  constructor(key: string) {
    super(`unsafe storage key: ${JSON.stringify(key.slice(0, 200))}`);
  }
}

/** Thrown by get() when nothing is stored under the key. */
export class StorageNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`nothing stored under ${key}`);
  }
}

export function isSafeStorageKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  return key.split('/').every((segment) => SEGMENT.test(segment) && segment !== '..' && !segment.includes('..'));
}

export function assertSafeStorageKey(key: string): void {
  if (!isSafeStorageKey(key)) throw new StorageKeyError(key);
}
