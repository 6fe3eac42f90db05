import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Alert, Anchor, Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBell, IconChevronDown, IconLanguage, IconSettings } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { onStaffUnauthorized } from '../../lib/api-client';
import { headerColors, usePortalBranding } from '../../lib/branding';
import { loadRestAfterContent, loadRestStyles } from '../../styles/load-rest-styles';
import { importAfterContent } from '../../lib/first-content';
import { portalSettingsQuery } from '../../lib/tenant';
import { displayTimeZone, setDisplayTimeZone } from '../../lib/time-zone';
import { LANGUAGES } from '../../i18n';
import { PortalLogo } from '../../ui/portal-logo';
import { MAIN_CONTENT_ID, SkipLink } from '../../ui/skip-link';
import { staffMeQuery } from './api/me';
import { staffToken, useStaffLogout } from './api/session';
import { useUnreadPolling } from './api/unread';
import { DeskContext, DeskPortalContext, initial, type Desk, type DeskPortal } from './desk-context';
import { useDeskKeys } from './desk-keys';
import { prefetchInbox } from './desk-start';
import { loadStaffTexts, useStaffT } from './i18n';
import { staffPath } from './staff-paths';
import classes from './staff.module.css';

/**
 * A part drawn with Mantine's styles beyond the first paint's (load-rest-styles.ts) and the desk's texts
 * beyond the inbox's (i18n/inbox-texts.ts).
 */
const withRestStyles = <T,>(load: () => Promise<T>): Promise<T> =>
  Promise.all([load(), loadRestStyles(), loadStaffTexts()]).then(([m]) => m);

/*
 * The header's two menus (Mantine's Menu, Popover and floating-ui) with the preferences dialog, and the
 * shortcuts' help, come after the inbox's first paint (lib/first-content): until then the header shows
 * the menus' buttons as they look, text only.
 */
const LanguagePicker = lazy(() =>
  importAfterContent(() => withRestStyles(() => import('../../ui/language-picker'))).then((m) => ({
    default: m.LanguagePicker,
  })),
);
const UserMenu = lazy(() =>
  importAfterContent(() => withRestStyles(() => import('./components/user-menu'))).then((m) => ({
    default: m.UserMenu,
  })),
);
/** The bell (issue 28): its count and list after the inbox's first paint, as the menus. */
const DeskBell = lazy(() =>
  importAfterContent(() => withRestStyles(() => import('./components/desk-bell'))).then((m) => ({
    default: m.DeskBell,
  })),
);
const ShortcutsHelp = lazy(() =>
  withRestStyles(() => import('./components/shortcuts-help')).then((m) => ({ default: m.ShortcutsHelp })),
);

/** The inbox's address (its view and filters are in the query), not the desk's other pages. */
const INBOX_PATH = /^\/[^/]+\/staff\/?$/i;

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
  // The help's code comes when first asked for, and stays (its closing animation plays).
  const [hasOpenedHelp, setHasOpenedHelp] = useState(false);
  if (isHelpOpen && !hasOpenedHelp) setHasOpenedHelp(true);

  // On the inbox, its first page, counts and options are asked for with who the agent is, not after (on
  // a first load they are already on their way: desk-start.ts).
  const queryClient = useQueryClient();
  const isInbox = INBOX_PATH.test(location.pathname);
  useEffect(() => {
    if (isSignedOut || !isInbox) return;
    prefetchInbox(queryClient, company, location.search);
    // Once, as the desk opens: the inbox's own queries take over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // The styles and texts beyond the first paint's, for the menus, dialogs and pages: after the inbox.
  useEffect(() => loadRestAfterContent(), []);

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
  // The inbox needs only these to draw its rows (dates show in the portal's zone): not who the agent is.
  const deskCompany = portal?.webPortalKey ?? company;
  const timeZone = settings.data?.timeZone ?? (settings.isError ? displayTimeZone() : null);
  const deskPortal = useMemo<DeskPortal>(() => ({ company: deskCompany, timeZone }), [deskCompany, timeZone]);
  const desk = useMemo<Desk | null>(
    () =>
      me.data && portal
        ? { company: portal.webPortalKey, portal, me: me.data, showShortcuts: help.open }
        : null,
    [me.data, portal, help.open],
  );
  // The inbox draws while the agent is being asked for (the same element, so it is not drawn anew once
  // they are known); the desk's other pages wait for them.
  const showsPage = me.isPending ? isInbox : desk !== null;

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
            {portal && (
              <Anchor
                component={Link}
                to={staffPath(company, 'reports')}
                className={classes.adminLink}
                style={{ color: 'inherit' }}
              >
                {t('reportsLink')}
              </Anchor>
            )}
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
            {desk && (
              <Suspense fallback={<BellFace />}>
                <DeskBell company={desk.company} />
              </Suspense>
            )}
            <Suspense fallback={<LanguageFace />}>
              <LanguagePicker />
            </Suspense>
            {me.data && (
              <Suspense fallback={<UserFace name={me.data.displayName} />}>
                <UserMenu name={me.data.displayName} email={me.data.email} onHelp={help.open} />
              </Suspense>
            )}
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
        {showsPage ? (
          <DeskContext.Provider value={desk}>
            <DeskPortalContext.Provider value={deskPortal}>
              {desk && <UnreadPoller company={desk.company} />}
              <Outlet />
            </DeskPortalContext.Provider>
          </DeskContext.Provider>
        ) : (
          !me.isPending && <NotStaffHere company={company} />
        )}
      </Box>
      {hasOpenedHelp && (
        <Suspense fallback={null}>
          <ShortcutsHelp opened={isHelpOpen} onClose={help.close} />
        </Suspense>
      )}
    </Box>
  );
}

/** Keeps the unread counts current on every desk page (long-poll), without rendering anything. */
function UnreadPoller({ company }: { company: string }) {
  useUnreadPolling(company);
  return null;
}

/** The bell's button as it looks, before its code is here. */
function BellFace() {
  return (
    <span className={classes.bellFace}>
      <IconBell size={20} aria-hidden />
    </span>
  );
}

/** The language menu's button as it looks, before its menu's code is here. */
function LanguageFace() {
  const { i18n } = useTranslation();
  const current = LANGUAGES.find((l) => l.value === i18n.language) ?? LANGUAGES[0];
  return (
    <span className={classes.languageFace}>
      <IconLanguage size={20} aria-hidden />
      <span className={classes.languageCode}>{current.value.slice(0, 2).toUpperCase()}</span>
      <IconChevronDown size={14} aria-hidden />
    </span>
  );
}

/** The user menu's button as it looks, before its menu's code is here. */
function UserFace({ name }: { name: string }) {
  return (
    <span className={classes.userButton}>
      <span className={classes.avatarFace} aria-hidden>
        {initial(name)}
      </span>
      <span className={classes.userName}>{name}</span>
      <IconChevronDown size={14} aria-hidden />
    </span>
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
