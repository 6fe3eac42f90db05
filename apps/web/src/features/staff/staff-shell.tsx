import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Anchor,
  Avatar,
  Box,
  Button,
  Group,
  Menu,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconKeyboard, IconLogout, IconSettings } from '@tabler/icons-react';
import { PreferencesDialog } from './preferences/preferences-dialog';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { onStaffUnauthorized } from '../../lib/api-client';
import { headerColors, usePortalBranding } from '../../lib/branding';
import { portalSettingsQuery } from '../../lib/tenant';
import { setDisplayTimeZone } from '../../lib/time-zone';
import { LanguagePicker } from '../../ui/language-picker';
import { PortalLogo } from '../../ui/portal-logo';
import { MAIN_CONTENT_ID, SkipLink } from '../../ui/skip-link';
import { staffMeQuery } from './api/me';
import { staffToken, useStaffLogout } from './api/session';
import { useUnreadPolling } from './api/unread';
import { ShortcutsHelp } from './components/shortcuts-help';
import { DeskContext, type Desk } from './desk-context';
import { useDeskKeys } from './desk-keys';
import { useStaffT } from './i18n';
import { staffPath } from './staff-paths';
import classes from './staff.module.css';

const initial = (name: string) => Array.from(name.trim())[0]?.toUpperCase() ?? '?';

/**
 * The desk's layout and guard: no staff token → the portal's staff sign-in; then who the agent is and
 * whether they belong to this portal (an agent sees only their portals); header on the portal's colour.
 */
export function StaffShell() {
  const { company = '' } = useParams();
  const { t } = useStaffT();
  const location = useLocation();
  const [isSignedOut, setIsSignedOut] = useState(() => !staffToken());
  const me = useQuery({ ...staffMeQuery(), enabled: !isSignedOut });
  const settings = useQuery({ ...portalSettingsQuery(company), retry: false });
  const [isHelpOpen, help] = useDisclosure(false);

  // A 401 on any staff call (expired or revoked session): api-client already forgot the token.
  useEffect(() => onStaffUnauthorized(() => setIsSignedOut(true)), []);

  // Dates show in the portal's zone, set before the pages render.
  if (settings.data) setDisplayTimeZone(settings.data.timeZone);
  usePortalBranding(settings.data);
  useDeskKeys({ '?': help.open });

  const portal = useMemo(
    () => me.data?.portals.find((p) => p.webPortalKey.toLowerCase() === company.toLowerCase()),
    [me.data, company],
  );
  const desk = useMemo<Desk | null>(
    () =>
      me.data && portal
        ? { company: portal.webPortalKey, portal, me: me.data, showShortcuts: help.open }
        : null,
    [me.data, portal, help.open],
  );

  if (isSignedOut || me.isError)
    return (
      <Navigate
        to={staffPath(company, 'login')}
        replace
        state={{ from: location.pathname + location.search }}
      />
    );
  const colors = headerColors(settings.data?.baseColor);
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <Box
        component="header"
        className={classes.header}
        style={{ background: colors.background, color: colors.color }}
        data-testid="staff-header"
      >
        <Group h="100%" px={{ base: 'xs', sm: 'md' }} justify="space-between" wrap="nowrap" gap="xs">
          <Anchor
            component={Link}
            to={staffPath(company)}
            className={classes.brand}
            style={{ color: 'inherit' }}
            underline="never"
          >
            <PortalLogo logoUrl={settings.data?.logoUrl} alt="" />
            <span className={classes.portalName}>{settings.data?.webPortalName ?? company}</span>
            <span className={classes.deskLabel}>{t('desk')}</span>
          </Anchor>
          <Group gap={4} wrap="nowrap">
            {portal?.role === 'admin' && (
              <Anchor
                component={Link}
                to={staffPath(company, 'admin')}
                className={classes.adminLink}
                style={{ color: 'inherit' }}
              >
                <IconSettings size={18} aria-hidden />
                <span className={classes.adminLabel}>{t('admin.link')}</span>
              </Anchor>
            )}
            <LanguagePicker />
            {me.data && <UserMenu name={me.data.displayName} email={me.data.email} onHelp={help.open} />}
          </Group>
        </Group>
      </Box>
      <Box
        component="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        className={classes.main}
        px={{ base: 'xs', sm: 'md' }}
        py="md"
      >
        {me.isPending ? null : !desk ? (
          <NotStaffHere company={company} />
        ) : (
          <DeskContext.Provider value={desk}>
            <UnreadPoller company={desk.company} />
            <Outlet />
          </DeskContext.Provider>
        )}
      </Box>
      <ShortcutsHelp opened={isHelpOpen} onClose={help.close} />
    </Box>
  );
}

/** Keeps the unread counts current on every desk page (long-poll), without rendering anything. */
function UnreadPoller({ company }: { company: string }) {
  useUnreadPolling(company);
  return null;
}

function UserMenu({ name, email, onHelp }: { name: string; email: string; onHelp: () => void }) {
  const { t } = useStaffT();
  const { company = '' } = useParams();
  const navigate = useNavigate();
  const logout = useStaffLogout();
  const [prefsOpen, setPrefsOpen] = useState(false);
  return (
    <>
      <PreferencesDialog opened={prefsOpen} onClose={() => setPrefsOpen(false)} />
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <UnstyledButton className={classes.userButton} aria-label={t('shell.userMenu', { name })}>
            <Avatar radius="xl" size={30} color="gray" variant="filled" aria-hidden>
              {initial(name)}
            </Avatar>
            <span className={classes.userName} aria-hidden>
              {name}
            </span>
            <IconChevronDown size={14} aria-hidden />
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{email}</Menu.Label>
          <Menu.Item leftSection={<IconKeyboard size={16} aria-hidden />} onClick={onHelp}>
            {t('shortcuts.title')}
          </Menu.Item>
          <Menu.Item leftSection={<IconSettings size={16} aria-hidden />} onClick={() => setPrefsOpen(true)}>
            {t('preferences.title')}
          </Menu.Item>
          <Menu.Item
            leftSection={<IconLogout size={16} aria-hidden />}
            onClick={() =>
              logout.mutate(undefined, {
                onSettled: () => void navigate(staffPath(company, 'login'), { replace: true }),
              })
            }
          >
            {t('shell.signOut')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </>
  );
}

/** Signed in, but not staff of the portal in the URL: say so, and offer the portals they belong to. */
function NotStaffHere({ company }: { company: string }) {
  const { t } = useStaffT();
  const me = useQuery(staffMeQuery());
  const portals = me.data?.portals ?? [];
  return (
    <Stack maw={560} mx="auto" py="xl">
      <Title order={1} size="h2">
        {t('shell.notStaffTitle')}
      </Title>
      <Alert color="yellow" variant="light" role="alert">
        {t('shell.notStaff', { portal: company })}
      </Alert>
      {portals.length > 0 && (
        <Stack gap={4}>
          <Text size="sm">{t('shell.yourPortals')}</Text>
          {portals.map((p) => (
            <Anchor key={p.webPortalKey} component={Link} to={staffPath(p.webPortalKey)}>
              {p.webPortalName}
            </Anchor>
          ))}
        </Stack>
      )}
      <SignOutButton company={company} />
    </Stack>
  );
}

function SignOutButton({ company }: { company: string }) {
  const { t } = useStaffT();
  const navigate = useNavigate();
  const logout = useStaffLogout();
  return (
    <Button
      variant="default"
      w="fit-content"
      onClick={() =>
        logout.mutate(undefined, {
          onSettled: () => void navigate(staffPath(company, 'login'), { replace: true }),
        })
      }
    >
      {t('shell.signOut')}
    </Button>
  );
}
