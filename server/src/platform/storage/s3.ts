// Files in an S3 bucket or any S3-compatible store (MinIO, R2...) when S3_BUCKET is set (DESIGN.md §1.4).
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { Storage } from '../../context';
import { assertSafeStorageKey, StorageNotFoundError } from './keys';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle?: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
}

export class S3Storage implements Storage {
  readonly client: S3Client;
  readonly bucket: string;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      // Without explicit keys the SDK's default chain applies (instance role, AWS_* variables...).
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
      // Newer SDKs add CRC checksums to every request by default; several S3-compatible stores reject them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertSafeStorageKey(key);
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }),
    );
  }

  async get(key: string): Promise<Readable> {
    assertSafeStorageKey(key);
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!result.Body) throw new StorageNotFoundError(key);
      // In Node the SDK's body is an http.IncomingMessage, i.e. already a Readable.
      return result.Body instanceof Readable ? result.Body : Readable.fromWeb(result.Body.transformToWebStream() as never);
    } catch (err) {
      // Only a missing key is a missing file; a missing bucket is a configuration error and must surface.
      if (err instanceof NoSuchKey || (err instanceof S3ServiceException && err.name === 'NoSuchKey')) {
        throw new StorageNotFoundError(key);
      }
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeStorageKey(key);
    // S3 deletes are idempotent: a missing key is not an error.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
