// The JSON of an avatar and its files (spec part 2 §3 "Avatar"): exactly these fields leave the server,
// with the actor's abilities (DESIGN.md §7). A file's bytes are never here: the download route checks them.
import type { Avatar, AvatarFile, AvatarKind } from '@pluma/common/avatars';
import type { Actor } from '../../platform/auth/actor';
import { avatarAbilities, avatarFileAbilities, type AvatarFileLink, type AvatarRow } from './policy';

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
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    abilities: avatarAbilities(actor, row),
  };
}

export interface LinkedFile {
  link: AvatarFileLink;
  file: { fileId: number; name: string; type: string; size: number; userId: number | null };
}

export function presentAvatarFile(actor: Actor, avatar: AvatarRow, { link, file }: LinkedFile): AvatarFile {
  return {
    avatar_file_id: link.avatarFileId,
    file_id: file.fileId,
    openai_file_id: null,
    editable: link.editable,
    file_data: { file_id: file.fileId, name: file.name, type: file.type, size: file.size },
    createdAt: link.createdAt.toISOString(),
    abilities: avatarFileAbilities(actor, { avatar, link, fileOwnerId: file.userId }),
  };
}
