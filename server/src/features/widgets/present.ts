// The JSON of a widget for its owner (contract B `Widget`), with the actor's abilities.
import type { Widget } from '@pluma/common/widgets';
import { fileSrc } from '@pluma/common/files';
import type { Actor } from '../../platform/auth/actor';
import { widgetPolicy, type WidgetRow } from './policy';

export interface WidgetListRow {
  widget: WidgetRow;
  avatarName: string;
  image: { fileId: number; type: string; publicName: string | null } | null;
  sessionsCount: number;
}

/**
 * The button image as an absolute URL: the snippet and the widget run on other websites, so a path of this
 * app would point at theirs.
 */
export function imageUrlOf(baseUrl: string, image: WidgetListRow['image']): string | null {
  return image ? `${baseUrl}${fileSrc(image)}` : null;
}

export function presentWidget(actor: Actor, row: WidgetListRow, baseUrl: string): Widget {
  const w = row.widget;
  return {
    widget_id: w.widgetId,
    avatar_id: w.avatarId,
    avatar_name: row.avatarName,
    name: w.name,
    accent_color: w.accentColor,
    image_url: imageUrlOf(baseUrl, row.image),
    allowed_origins: w.allowedOrigins,
    enabled: w.enabled,
    public_key: w.publicKey,
    words_used: w.wordsUsed,
    sessions_count: row.sessionsCount,
    created_at: w.createdAt.toISOString(),
    updated_at: w.updatedAt.toISOString(),
    abilities: widgetPolicy.abilities(actor, w),
  };
}
