// The avatar control of the prompt box (spec part 2 §2: "Files and avatar buttons show for gpt, claude or
// unset models"): the user's own avatars and the community's public ones; the chosen avatar answers the next
// messages (POST /messages avatar_id; the server keeps it as the conversation's avatar). "No avatar" stops it.
import { Select } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAvatars } from '../avatars';
import classes from './Chat.module.css';

const NONE = 'none';

interface AvatarControlProps {
  avatarId: number | null;
  onChange: (avatarId: number | null) => void;
  disabled?: boolean;
}

export function AvatarControl({ avatarId, onChange, disabled }: AvatarControlProps) {
  const { t } = useTranslation('chat');
  const mine = useAvatars('mine', '');
  const community = useAvatars('community', '');
  const data = useMemo(() => {
    const own = mine.data?.avatars ?? [];
    const ownIds = new Set(own.map((a) => a.avatar_id));
    const shared = (community.data?.avatars ?? []).filter((a) => !ownIds.has(a.avatar_id));
    const groups = [{ group: t('avatar.none'), items: [{ value: NONE, label: t('avatar.noneOption') }] }];
    if (own.length) groups.push({ group: t('avatar.mine'), items: own.map((a) => ({ value: String(a.avatar_id), label: a.name })) });
    if (shared.length) groups.push({ group: t('avatar.community'), items: shared.map((a) => ({ value: String(a.avatar_id), label: a.name })) });
    // The conversation's avatar stays shown while the lists load (or once it left them).
    if (avatarId !== null && !own.some((a) => a.avatar_id === avatarId) && !shared.some((a) => a.avatar_id === avatarId)) {
      groups.push({ group: t('avatar.current'), items: [{ value: String(avatarId), label: t('avatar.numbered', { id: avatarId }) }] });
    }
    return groups;
  }, [mine.data, community.data, avatarId, t]);
  return (
    <Select
      className={classes.modelSelect}
      size="xs"
      aria-label={t('avatar.label')}
      data={data}
      value={avatarId === null ? NONE : String(avatarId)}
      onChange={(value) => onChange(!value || value === NONE ? null : Number(value))}
      allowDeselect={false}
      searchable
      disabled={disabled}
      comboboxProps={{ withinPortal: true, keepMounted: false }}
      data-testid="avatar-select"
    />
  );
}
