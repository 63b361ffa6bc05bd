// All / Tags view of the conversation list (spec part 2 §2: "all or tags filter").
import { SegmentedControl, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export function ViewSwitch({ value }: { value: 'all' | 'tags' }) {
  const { t } = useTranslation('chat');
  const navigate = useNavigate();
  const labelId = useId();
  return (
    <Stack gap={4}>
      <Text id={labelId} size="sm" fw={500}>
        {t('list.view')}
      </Text>
      <SegmentedControl
        aria-labelledby={labelId}
        value={value}
        onChange={(next) => void navigate(next === 'tags' ? '/conversation/tags' : '/conversations')}
        data={[
          { value: 'all', label: t('list.viewAll') },
          { value: 'tags', label: t('list.viewTags') },
        ]}
        data-testid="view-switch"
      />
    </Stack>
  );
}
