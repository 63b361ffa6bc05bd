// A conversation card (spec part 2 §2): name, up to 3 tags, a model badge, archive, edit, delete and open.
import { Anchor, Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import type { Conversation } from '@pluma/common/conversations';
import { IconArchive, IconArchiveOff, IconPencil, IconTrash } from '@tabler/icons-react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TooltipIconButton } from '../../ui/TooltipIconButton';
import { cardTags } from './list-params';
import classes from './Conversations.module.css';
import { formatDate } from '../../i18n/format';

interface ConversationCardProps {
  conversation: Conversation;
  /** The model's label, or null for the default model. */
  modelLabel: string | null;
  onEdit: (conversation: Conversation) => void;
  onArchive: (conversation: Conversation, archived: boolean) => void;
  onDelete: (conversation: Conversation) => void;
  busy?: boolean;
}

export const ConversationCard = memo(function ConversationCard({ conversation, modelLabel, onEdit, onArchive, onDelete, busy }: ConversationCardProps) {
  const { t, i18n } = useTranslation('chat');
  const { shown, more } = cardTags(conversation.tags);
  const to = `/conversations/${conversation.conversation_id}`;
  const updated = formatDate(conversation.updatedAt, i18n.language);
  return (
    <Card withBorder radius="lg" padding="md" className={classes.card} data-testid="conversation-card" aria-busy={busy}>
      <Stack gap="xs" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Anchor component={Link} to={to} fw={600} c="inherit" lineClamp={2} className={classes.cardTitle}>
            {conversation.name}
          </Anchor>
          <Badge variant="light" color={modelLabel ? 'violet' : 'gray'} tt="none" className={classes.modelBadge} data-testid="model-badge">
            {modelLabel ?? t('model.default')}
          </Badge>
        </Group>
        {shown.length > 0 && (
          <Group gap={6} aria-label={t('list.tagsLabel')}>
            {shown.map((tag) => (
              <Badge key={tag} component={Link} to={`/conversation/tags/${encodeURIComponent(tag)}`} variant="outline" radius="sm" tt="none" className={classes.tag}>
                {tag}
              </Badge>
            ))}
            {more > 0 && (
              <Text size="xs" c="var(--pluma-muted)">
                {t('list.moreTags', { count: more })}
              </Text>
            )}
          </Group>
        )}
        <Text size="xs" c="var(--pluma-muted)" mt="auto">
          {t('list.updated', { date: updated })}
        </Text>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Button component={Link} to={to} size="xs" variant="light" aria-label={t('list.openNamed', { name: conversation.name })}>
            {t('actions.open')}
          </Button>
          <Group gap={4} wrap="nowrap">
            {/* Only what the server allows (the conversation's abilities, DESIGN.md §7). */}
            {conversation.abilities.update && (
              <TooltipIconButton tooltip={t('actions.edit')} label={t('list.editNamed', { name: conversation.name })} onClick={() => onEdit(conversation)}>
                <IconPencil size={18} aria-hidden />
              </TooltipIconButton>
            )}
            {conversation.abilities.update && (
              <TooltipIconButton
                tooltip={conversation.archived ? t('actions.unarchive') : t('actions.archive')}
                label={conversation.archived ? t('list.unarchiveNamed', { name: conversation.name }) : t('list.archiveNamed', { name: conversation.name })}
                onClick={() => onArchive(conversation, !conversation.archived)}
                disabled={busy}
              >
                {conversation.archived ? <IconArchiveOff size={18} aria-hidden /> : <IconArchive size={18} aria-hidden />}
              </TooltipIconButton>
            )}
            {conversation.abilities.delete && (
              <TooltipIconButton tooltip={t('actions.delete')} label={t('list.deleteNamed', { name: conversation.name })} color="red" onClick={() => onDelete(conversation)}>
                <IconTrash size={18} aria-hidden />
              </TooltipIconButton>
            )}
          </Group>
        </Group>
      </Stack>
    </Card>
  );
});
