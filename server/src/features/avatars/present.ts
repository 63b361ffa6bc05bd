// The JSON of an avatar and its files (spec part 2 §3 "Avatar"): exactly these fields leave the server,
// with the actor's abilities (DESIGN.md §7). A file's bytes are never here: the download route checks them.
import type { Avatar, AvatarFile, AvatarFileIndex, AvatarKind, AvatarRefine, AvatarWithFiles } from '@pluma/common/avatars';
import type { Actor } from '../../platform/auth/actor';
import { avatarFilePolicy, avatarPolicy, type AvatarFileLink, type AvatarRow } from './policy';

export interface AvatarExtras {
  author: { name: string; lastName: string } | null;
  filesCount: number;
}

export function presentAvatar(actor: Actor, row: AvatarRow, extras: AvatarExtras): Avatar {
  return {
    avatar_id: row.avatarId,
    assistant_id: row.assistantId,
    name: row.name,
    description: row.description,
    context: row.context,
    public: row.public,
    user_id: row.userId,
    organization_id: row.organizationId,
    super_fetch_assistant: row.kind === 'super_fetch',
    kind: row.kind as AvatarKind | null,
    author: { name: extras.author?.name ?? '', last_name: extras.author?.lastName ?? '' },
    files_count: extras.filesCount,
    refine: avatarPolicy.can(actor, 'refine', row) ? presentRefine(row) : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    abilities: avatarPolicy.abilities(actor, row),
  };
}

/** The refine's state as the page shows it (and the `avatar_refine` event carries). */
export function presentRefine(row: Pick<AvatarRow, 'refineStatus' | 'refineErrorCode' | 'refineErrorMessage' | 'refineUpdatedAt'>): AvatarRefine {
  return {
    status: row.refineStatus as AvatarRefine['status'],
    error_code: row.refineErrorCode,
    error_message: row.refineErrorMessage,
    updatedAt: row.refineUpdatedAt?.toISOString() ?? null,
  };
}

/** A file's knowledge status row (the knowledge feature's), when it was ever queued. */
export interface FileIndexRow {
  status: string;
  progress: number;
  failureReason: string | null;
}

export interface LinkedFile {
  link: AvatarFileLink;
  file: { fileId: number; name: string; type: string; size: number; userId: number | null };
  index: FileIndexRow | null;
}

function presentIndex(row: FileIndexRow | null): AvatarFileIndex {
  if (!row) return { status: 'none', progress: 0, failure_reason: null };
  return { status: row.status as AvatarFileIndex['status'], progress: row.progress, failure_reason: row.failureReason };
}

export function presentAvatarFile(actor: Actor, avatar: AvatarRow, { link, file, index }: LinkedFile): AvatarFile {
  return {
    avatar_file_id: link.avatarFileId,
    file_id: file.fileId,
    openai_file_id: null,
    editable: link.editable,
    file_data: { file_id: file.fileId, name: file.name, type: file.type, size: file.size },
    createdAt: link.createdAt.toISOString(),
    index: presentIndex(index),
    abilities: avatarFilePolicy.abilities(actor, { avatar, link, fileOwnerId: file.userId }),
  };
}

/** An avatar with what its JSON shows besides the row (services/loadAvatarDetail). */
export interface AvatarDetail extends AvatarExtras {
  row: AvatarRow;
  files: LinkedFile[];
}

export function presentAvatarWithFiles(actor: Actor, { row, files, ...extras }: AvatarDetail): AvatarWithFiles {
  return { ...presentAvatar(actor, row, extras), avatar_files: files.map((l) => presentAvatarFile(actor, row, l)) };
}
