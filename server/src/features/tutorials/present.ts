// The JSON of a tutorial (spec part 2 §3 "Tutorial"): exactly these fields leave the server, with the
// actor's abilities (DESIGN.md §7). An uploaded thumbnail is a public image (/api/files/{name}.{type}).
import { fileSrc } from '@pluma/common/files';
import type { Tutorial, TutorialLanguage } from '@pluma/common/tutorials';
import type { Actor } from '../../platform/auth/actor';
import { tutorialPolicy, type TutorialRow } from './policy';
import type { TutorialListRow } from './service';

export interface ThumbnailFile {
  fileId: number;
  type: string;
  publicName: string | null;
}

export function presentTutorial(actor: Actor, row: TutorialRow, thumbnailFile: ThumbnailFile | null): Tutorial {
  return {
    tutorial_id: row.tutorialId,
    name: row.name,
    description: row.description,
    language: row.language as TutorialLanguage,
    src: row.src,
    thumbnail: thumbnailFile?.publicName ? fileSrc(thumbnailFile) : row.thumbnailUrl,
    thumbnail_file_id: thumbnailFile?.publicName ? thumbnailFile.fileId : null,
    order: row.order,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    abilities: tutorialPolicy.abilities(actor, row),
  };
}

/** A tutorial as the service reads it: the row and its uploaded thumbnail, if any (a left join's nulls otherwise). */
export const presentTutorialRow = (actor: Actor, r: TutorialListRow): Tutorial => presentTutorial(actor, r.tutorial, r.file?.fileId ? r.file : null);
