import {
  Avatar,
  Menu,
  Text,
  UnstyledButton,
  useMantineColorScheme,
  type MantineColorScheme,
} from '@mantine/core';
import {
  IconBell,
  IconCheck,
  IconDeviceDesktop,
  IconLogout,
  IconMoon,
  IconSun,
  IconUserCircle,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useLogout } from '../../features/auth/api/logout';
import type { HeaderColors } from '../../lib/branding';
import { useTenant } from '../../lib/tenant';
import { loginPath } from '../sections';
import classes from './shell.module.css';

/** The user's initial; opens the user name, Notifications, the colour scheme and Logout (SPEC A2). Logout goes to `/{company}/Login`. */
export function UserBadge({ headerColors }: { headerColors: HeaderColors }) {
  const { t } = useTranslation();
  const { user, company, basePath } = useTenant();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const schemes: { value: MantineColorScheme; icon: typeof IconSun }[] = [
    { value: 'auto', icon: IconDeviceDesktop },
    { value: 'light', icon: IconSun },
    { value: 'dark', icon: IconMoon },
  ];
  const logout = useLogout();
  const shownName = user.displayName?.trim() || user.userName;
  const initial = (shownName.trim()[0] ?? '?').toUpperCase();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <UnstyledButton
          className={classes.headerButton}
          aria-label={t('layout.accountMenu', { name: shownName })}
          data-testid="user-badge"
        >
          {/* Inverted header colours: the same pair, so the same contrast. */}
          <Avatar
            radius="xl"
            size={32}
            styles={{
              root: { background: headerColors.color },
              placeholder: { background: headerColors.color, color: headerColors.background },
            }}
          >
            {initial}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown miw={200}>
        <Menu.Label>{t('layout.signedInAs')}</Menu.Label>
        <Text px="sm" pb="xs" fw={600} data-testid="user-name">
          {shownName}
        </Text>
        <Menu.Divider />
        <Menu.Item
          component={Link}
          to={`${basePath}/profile`}
          leftSection={<IconUserCircle size={16} aria-hidden />}
          data-testid="profile-link"
        >
          {t('account.menuItem')}
        </Menu.Item>
        <Menu.Item
          component={Link}
          to={`${basePath}/notifications`}
          leftSection={<IconBell size={16} aria-hidden />}
        >
          {t('notifications.title')}
        </Menu.Item>
        <Menu.Divider />
        {/* Dark mode: the system's setting, or the user's choice (kept in this browser). */}
        <Menu.Label>{t('theme.label')}</Menu.Label>
        {schemes.map(({ value, icon: Icon }) => (
          <Menu.Item
            key={value}
            role="menuitemradio"
            aria-checked={colorScheme === value}
            leftSection={<Icon size={16} aria-hidden />}
            rightSection={colorScheme === value ? <IconCheck size={14} aria-hidden /> : null}
            onClick={() => setColorScheme(value)}
            data-testid={`color-scheme-${value}`}
          >
            {t(`theme.${value}`)}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item
          leftSection={<IconLogout size={16} aria-hidden />}
          disabled={logout.isPending}
          onClick={() => logout.mutate(loginPath(company))}
        >
          {t('common.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
