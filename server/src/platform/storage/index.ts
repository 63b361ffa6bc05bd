// The file store: S3 when S3_BUCKET is set, else local disk under DATA_DIR/files (docs/configuration.md).
import path from 'node:path';
import type { Storage } from '../../context';
import type { Env } from '../../env';
import { LocalStorage } from './local';
import { S3Storage } from './s3';

export { isSafeStorageKey, StorageKeyError, StorageNotFoundError } from './keys';
export { LocalStorage } from './local';
export { S3Storage } from './s3';

export function createStorage(env: Env): Storage {
  if (env.S3_BUCKET) {
    return new S3Storage({
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    });
  }
  return new LocalStorage(path.join(env.DATA_DIR, 'files'));
}
