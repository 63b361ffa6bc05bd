import { z } from 'zod';

// Files (spec part 1 §7, part 2 §7): POST /api/files (multipart field 'file'), GET/PUT/DELETE /api/files/{id},
// public images at /api/files/{name}.{type}.

export { DOCUMENT_FILE_TYPES, FILE_ACCEPT, FILE_TYPES, IMAGE_FILE_TYPES, isImageFileType, TEXT_FILE_TYPES, VIDEO_FILE_TYPES, type FileType } from './file-types';

/** Answer of POST /api/files and PUT /api/files/{id}; `src` is where to fetch it. */
/** What may be done with a file (DESIGN.md §7: presenters carry the actor's abilities). */
export const FILE_ACTIONS = ['read', 'replace', 'delete'] as const;
export type FileAction = (typeof FILE_ACTIONS)[number];

export const fileResponse = z.object({
  file_id: z.number().int(),
  name: z.string(),
  type: z.string(),
  size: z.number().int(),
  src: z.string(),
  /** The actions the signed-in user may take on it (the owner replaces and deletes; staff only read). */
  abilities: z.object(Object.fromEntries(FILE_ACTIONS.map((a) => [a, z.boolean()])) as Record<FileAction, z.ZodBoolean>),
});
export type FileResponse = z.infer<typeof fileResponse>;

/** Public images have a random name; private files are reached by id with the owner's token. */
export function fileSrc(file: { fileId: number; type: string; publicName: string | null }): string {
  return file.publicName ? `/api/files/${file.publicName}.${file.type}` : `/api/files/${file.fileId}`;
}
