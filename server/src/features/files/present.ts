// The JSON fields of a file that leave the server (never the storage key or the owner).
import { fileSrc, type FileResponse } from '@pluma/common/files';
import { encodeExtended } from 'content-disposition';
import type { Actor } from '../../platform/auth/actor';
import { filePolicy } from './policy';
import type { FileRow } from './service';

export function presentFile(actor: Actor, row: FileRow): FileResponse {
  return { file_id: row.fileId, name: row.name, type: row.type, size: row.size, src: fileSrc(row), abilities: filePolicy.abilities(actor, row) };
}

/**
 * RFC 6266: an ASCII fallback plus the exact name, RFC 8187-encoded by the content-disposition package.
 * Both parameters are always sent, and the fallback uses "_" (its own `create()` would send a bare
 * `filename=` for ASCII names and "?" for other characters, which is not a valid file name on Windows).
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=${encodeExtended(name)}`;
}
