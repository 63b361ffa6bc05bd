// The JSON fields of a file that leave the server (never the storage key or the owner).
import { fileSrc, type FileResponse } from '@pluma/common/files';
import type { Actor } from '../../platform/auth/actor';
import { filePolicy } from './policy';
import type { FileRow } from './service';

export function presentFile(actor: Actor, row: FileRow): FileResponse {
  return { file_id: row.fileId, name: row.name, type: row.type, size: row.size, src: fileSrc(row), abilities: filePolicy.abilities(actor, row) };
}
