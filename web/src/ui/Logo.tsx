// The product logo from the configuration (light_logo / dark_logo by colour scheme), else the app name.
import { Group, Text, ThemeIcon, useComputedColorScheme } from '@mantine/core';
import { IconFeather } from '@tabler/icons-react';
import { useAppConfig } from '../platform/config/app-config';

export function Logo({ height = 32 }: { height?: number }) {
  const config = useAppConfig();
  const scheme = useComputedColorScheme('light');
  const appName = config.get('app_name');
  // light_logo is drawn for light backgrounds; dark_logo for dark ones (each falls back to the other).
  const src = scheme === 'dark' ? config.get('dark_logo') || config.get('light_logo') : config.get('light_logo') || config.get('dark_logo');
  if (src) return <img src={src} alt={appName} style={{ height, maxWidth: 180, objectFit: 'contain', display: 'block' }} />;
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon size={height} radius="md" variant="filled" aria-hidden>
        <IconFeather size={height * 0.6} />
      </ThemeIcon>
      <Text fw={800} fz={Math.round(height * 0.6)} lh={1} style={{ letterSpacing: '-0.02em' }}>
        {appName}
      </Text>
    </Group>
  );
}
