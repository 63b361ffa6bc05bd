// User menu (spec part 2 §2): registered entries (Settings, Billing...) and log out.
import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import type { CurrentUser } from '@pluma/common/users';
import { IconChevronUp, IconLogout } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { registry } from '../app-registry';
import { initials } from '../../ui/initials';
import { useSession } from '../../platform/session/session-context';
import classes from './Shell.module.css';

export function UserMenu({ user, onNavigate }: { user: CurrentUser; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { signOut } = useSession();
  const fullName = `${user.name} ${user.last_name}`.trim() || user.email;
  return (
    <Menu position="top-start" width="target" withinPortal shadow="md">
      <Menu.Target>
        <UnstyledButton className={classes.userButton} data-testid="user-menu">
          <Group gap="sm" wrap="nowrap">
            <Avatar src={user.picture} radius="xl" color="brand" alt="" size={36}>
              {initials(user)}
            </Avatar>
            <div style={{ flex: 1, minWidth: 0 }}>
              <Text size="sm" fw={600} truncate>
                {fullName}
              </Text>
              <Text size="xs" c="var(--pluma-muted)" truncate>
                {user.email}
              </Text>
            </div>
            <IconChevronUp size={16} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {registry.userMenu.map((item) => (
          <Menu.Item key={item.to} component={Link} to={item.to} leftSection={<item.icon size={16} aria-hidden />} onClick={onNavigate}>
            {t(item.labelKey)}
          </Menu.Item>
        ))}
        {registry.userMenu.length > 0 && <Menu.Divider />}
        <Menu.Item leftSection={<IconLogout size={16} aria-hidden />} onClick={() => void signOut()}>
          {t('shell.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
