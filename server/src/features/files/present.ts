// The JSON fields of a file that leave the server (never the storage key or the owner).
import { fileSrc, type FileResponse } from '@pluma/common/files';
import type { FileRow } from './service';

export function presentFile(row: FileRow): FileResponse {
  return { file_id: row.fileId, name: row.name, type: row.type, size: row.size, src: fileSrc(row) };
}

/** RFC 6266 / 5987: an ASCII fallback plus the exact UTF-8 name. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
