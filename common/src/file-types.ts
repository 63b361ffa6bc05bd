// File types and the upload picker's accept list (spec part 1 §7 files). No zod here: the web's first
// screens import these without loading the schemas (files.ts re-exports them for the server).

/** Types a file may have, named by the extension of its sniffed content (never the uploaded name). */
export const IMAGE_FILE_TYPES = ['png', 'jpg', 'gif', 'webp'] as const;
export const DOCUMENT_FILE_TYPES = ['pdf', 'docx', 'pptx', 'xlsx'] as const;
export const VIDEO_FILE_TYPES = ['mp4', 'webm', 'mov'] as const;
/** Plain text is accepted under these names when its bytes are valid UTF-8 without NULs. */
export const TEXT_FILE_TYPES = ['txt', 'md', 'csv'] as const;
export const FILE_TYPES = [...IMAGE_FILE_TYPES, ...DOCUMENT_FILE_TYPES, ...VIDEO_FILE_TYPES, ...TEXT_FILE_TYPES] as const;
export type FileType = (typeof FILE_TYPES)[number];

export const isImageFileType = (type: string): boolean => (IMAGE_FILE_TYPES as readonly string[]).includes(type);

/** For a file input's `accept` attribute. */
export const FILE_ACCEPT = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  '.docx',
  '.pptx',
  '.xlsx',
  'video/mp4',
  'video/webm',
  'video/quicktime',
  '.txt',
  '.md',
  '.csv',
].join(',');
