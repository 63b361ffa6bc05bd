// Sidebar (spec part 2 §2): logo, words balance, registered tabs (Chats, Avatars...), Upgrade when the
// user has no access, staff menus (Personal organization only) and the user menu.
import { Box, Button, Divider, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import type { CurrentUser } from '@pluma/common/users';
import { IconChartPie, IconRocket, IconShieldLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useActiveOrganization } from '../../api/organization';
import { registry } from '../app-registry';
import { useAppConfig } from '../../platform/config/app-config';
import { visibleStaffMenu, visibleTabs, type StaffMenuItem } from '../../platform/registry';
import { isUnder } from '../../platform/session/paths';
import { Logo } from '../../ui/Logo';
import { ShellWidgets } from './ShellWidgets';
import classes from './Shell.module.css';
import { UserMenu } from './UserMenu';
import { WordsBalance } from './WordsBalance';

interface SidebarProps {
  user: CurrentUser;
  onNavigate: () => void;
}

export function Sidebar({ user, onNavigate }: SidebarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const config = useAppConfig();
  const organization = useActiveOrganization();
  const inOrganization = organization !== null;
  const tabs = visibleTabs(registry.tabs, { isOn: config.on, inOrganization });
  const staffRole = user.staff?.role ?? null;
  const adminItems = visibleStaffMenu(registry.staffMenus.admin, staffRole, inOrganization);
  const analyticsItems = visibleStaffMenu(registry.staffMenus.analytics, staffRole, inOrganization);

  const staffGroup = (id: string, label: string, Icon: typeof IconShieldLock, items: StaffMenuItem[]) =>
    items.length > 0 && (
      <NavLink
        key={id}
        label={label}
        leftSection={<Icon size={18} aria-hidden />}
        defaultOpened={items.some((item) => isUnder(pathname, item.to))}
        className={classes.navLink}
        data-testid={`staff-menu-${id}`}
      >
        {items.map((item) => (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={t(item.labelKey)}
            active={pathname === item.to || (item.to !== '/admin' && isUnder(pathname, item.to))}
            onClick={onNavigate}
            className={classes.navLink}
          />
        ))}
      </NavLink>
    );

  return (
    <Stack h="100%" gap={0}>
      <Box px="md" pt="md" pb="sm" visibleFrom="sm">
        <Link to="/" className={classes.logoLink} onClick={onNavigate}>
          <Logo />
        </Link>
      </Box>
      <Box px="md" pb="sm" pt={{ base: 'md', sm: 0 }}>
        <Stack gap="sm">
          <ShellWidgets slot="sidebarTop" onNavigate={onNavigate} />
          <WordsBalance words={user.available_words} />
        </Stack>
      </Box>
      <ScrollArea style={{ flex: 1 }} px="sm" type="auto" offsetScrollbars>
        <Stack gap={2} py="xs">
          {tabs.map((tab) => (
            <NavLink
              key={tab.id}
              component={Link}
              to={tab.to}
              label={t(tab.labelKey)}
              leftSection={<tab.icon size={18} aria-hidden />}
              active={isUnder(pathname, tab.to)}
              onClick={onNavigate}
              className={classes.navLink}
              data-testid={`nav-${tab.id}`}
            />
          ))}
          {(adminItems.length > 0 || analyticsItems.length > 0) && (
            <>
              <Divider my="xs" />
              <Text size="xs" fw={700} tt="uppercase" c="var(--pluma-muted)" px="sm" py={4}>
                {t('shell.staff')}
              </Text>
              {staffGroup('admin', t('shell.admin'), IconShieldLock, adminItems)}
              {staffGroup('analytics', t('shell.analytics'), IconChartPie, analyticsItems)}
            </>
          )}
        </Stack>
      </ScrollArea>
      <Stack gap="sm" p="md" className={classes.sidebarFooter}>
        {!user.has_access && (
          <Button component={Link} to="/upgrade" leftSection={<IconRocket size={18} aria-hidden />} onClick={onNavigate} fullWidth data-testid="upgrade-button">
            {t('shell.upgrade')}
          </Button>
        )}
        <ShellWidgets slot="sidebarBottom" onNavigate={onNavigate} />
        <UserMenu user={user} onNavigate={onNavigate} />
      </Stack>
    </Stack>
  );
}
