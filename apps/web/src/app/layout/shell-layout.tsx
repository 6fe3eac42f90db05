import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { AppShell, Button, Stack, Text, Title } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { useLogout } from '../../features/auth/api/logout';
import { onUnauthorized } from '../../lib/api-client';
import { usePortalBranding } from '../../lib/branding';
import { setDisplayTimeZone } from '../../lib/time-zone';
import { storage } from '../../lib/storage';
import { useTimeSliced } from '../../lib/time-sliced';
import { meQuery, TenantContext, type Tenant } from '../../lib/tenant';
import { MAIN_CONTENT_ID, SkipLink } from '../../ui/skip-link';
import { contactPath, loginPath, pickContact } from '../sections';
import { loadRestTexts } from '../../i18n';
import { loadRestAfterContent } from '../../styles/load-rest-styles';
import { AppHeader } from './header';
import { AppFooter } from './footer';
import { MainMenu } from './main-menu';
import { PageLoader } from '../../ui/lazy-page';
import { FullScreenSpinner } from './spinners';
import classes from './shell.module.css';
import { usePageTitle } from '../../ui/page-title';

/**
 * Loaded only when a session expires over a page: the dialog brings a modal, the sign-in form and the
 * second factor (passkeys), none of which the first load needs.
 */
const SessionExpiredDialog = lazy(() =>
  Promise.all([import('./session-expired-dialog'), loadRestTexts()]).then(([m]) => ({
    default: m.SessionExpiredDialog,
  })),
);

/** SPEC A9: the spinner stays this long after the portal settings arrive, so the branding settles unseen. */
export const SPINNER_SETTLE_MS = 200;
/** Only a "see as this contact" tab loads it. */
const ViewAsBanner = lazy(() => Promise.all([import('./view-as-banner'), loadRestTexts()]).then(([m]) => m));
/** Only after a guard turned an address away (route-guards.tsx). */
const HiddenSectionNotice = lazy(() =>
  Promise.all([import('./hidden-section-notice'), loadRestTexts()]).then(([m]) => m),
);
/** Below Mantine's `sm` breakpoint (768 px) the menu is a drawer behind a burger. */
const PHONE_QUERY = '(max-width: 47.99em)';
const BURGER_ID = 'app-burger';

/**
 * The layout route `/:company?/:contactid?` and its guard (SPEC A2): no token → login; the current user is
 * fetched (a failure counts as signed out); the URL's contact is validated, else the remembered or first one
 * is chosen and the URL corrected; then header, menu, page and footer.
 */
export function ShellLayout() {
  const { company, contactid } = useParams();
  const location = useLocation();
  const queryClient = useQueryClient();
  const token = storage.get('token');
  const viewAs = storage.viewAs();
  const [isExpired, setIsExpired] = useState(false);
  // The shell and the page draw time-sliced once the user is here (lib/time-sliced).
  const me = useTimeSliced(useQuery({ ...meQuery(), enabled: !!token && !isExpired }));

  // A call answered 401 (expired or revoked token): api-client already dropped the token. Over a page
  // the user asks to sign in again in a dialog and keeps the page and what was typed (issue 16).
  useEffect(() => onUnauthorized(() => setIsExpired(true)), []);
  const isExpiredOverPage = isExpired && !!me.data;

  const choice = useMemo(
    () =>
      me.data
        ? pickContact(me.data, company, contactid, {
            company: storage.get('company'),
            contactId: storage.get('contactId'),
          })
        : null,
    [me.data, company, contactid],
  );

  const tenant = useMemo<Tenant | null>(() => {
    if (!me.data || !choice || choice.redirect) return null;
    const c = choice.contact;
    return {
      company: c.portalSettings.webPortalKey,
      contactId: c.contactId,
      contact: c,
      user: me.data,
      basePath: contactPath(c),
    };
  }, [me.data, choice]);

  // Pages format dates while rendering, so the zone must be right before they render, not after.
  if (tenant) setDisplayTimeZone(tenant.contact.portalSettings.timeZone);
  usePortalBranding(tenant?.contact.portalSettings);

  useEffect(() => {
    if (!tenant) return;
    storage.set('company', tenant.company);
    storage.set('contactId', String(tenant.contactId));
  }, [tenant]);

  const [isSettled, setIsSettled] = useState(false);
  useEffect(() => {
    if (!tenant || isSettled) return;
    const timer = setTimeout(() => setIsSettled(true), SPINNER_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [tenant, isSettled]);

  // A failed first check means signed out (SPEC A2); a failed refetch over a page is not (a 401 opens
  // the dialog above, anything else leaves the page as it was).
  const isSignedIn = isExpiredOverPage || (!!token && !isExpired && !(me.isError && !me.data));
  useEffect(() => {
    if (isSignedIn) return;
    // Signed out for whatever reason: nothing of this session may stay in memory or storage.
    storage.set('token', null);
    queryClient.removeQueries();
  }, [isSignedIn, queryClient]);

  if (!isSignedIn)
    return <Navigate to={loginPath(company)} replace state={{ from: location.pathname + location.search }} />;
  if (me.isPending) return <FullScreenSpinner />;
  if (!choice) return <NoContacts />;
  if (choice.redirect) return <Navigate to={contactPath(choice.contact)} replace />;
  if (!tenant) return <FullScreenSpinner />;

  return (
    <TenantContext.Provider value={tenant}>
      <Shell tenantKey={tenant.basePath} />
      {viewAs && (
        <Suspense fallback={null}>
          <ViewAsBanner info={viewAs} />
        </Suspense>
      )}
      {!isSettled && <FullScreenSpinner />}
      {isExpiredOverPage && (
        <Suspense fallback={null}>
          <SessionExpiredDialog
            userName={tenant.user.userName}
            userId={tenant.user.id}
            company={tenant.company}
            onSignedIn={() => setIsExpired(false)}
          />
        </Suspense>
      )}
    </TenantContext.Provider>
  );
}

/**
 * Header, menu, page and footer. `preview`: the desk's branding preview frames it with sample content
 * (no live parts that would ask the server as a signed-in contact).
 */
export function Shell({
  tenantKey,
  preview,
  children,
}: {
  tenantKey: string;
  preview?: boolean;
  children?: ReactNode;
}) {
  const [isNavOpen, nav] = useDisclosure(false);
  // Read in the first render: read in an effect, its answer drew the whole shell again in a task of its own.
  const isPhone = useMediaQuery(PHONE_QUERY, undefined, { getInitialValueInEffect: false });
  const navRef = useRef<HTMLDivElement>(null);
  const location = useLocation();
  // Menus and dialogs of the shell and of My tickets open with the styles and texts the first paint left
  // out: fetched when idle, after My tickets' list (lib/first-content).
  useEffect(() => loadRestAfterContent(), []);
  // A page change on a phone closes the drawer.
  const [lastPath, setLastPath] = useState(location.pathname);
  if (lastPath !== location.pathname) {
    setLastPath(location.pathname);
    nav.close();
  }
  // The drawer behaves like a popup on a phone: focus goes in, Escape closes it and returns to the burger.
  useEffect(() => {
    if (!isPhone || !isNavOpen) return;
    navRef.current?.querySelector<HTMLElement>('a')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      nav.close();
      document.getElementById(BURGER_ID)?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [isPhone, isNavOpen, nav]);

  return (
    <AppShell
      className={classes.root}
      header={{ height: 60 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !isNavOpen } }}
      padding="md"
      // The page area (its top padding is the header's room) fills the screen, so the footer starts below
      // the fold: a page growing as its data and code arrive pushes nothing visible (the footer's moves
      // made most of a ticket's layout shift, 0.25 on a phone).
      styles={{ main: { minHeight: '100dvh', flex: '1 0 auto' } }}
    >
      <SkipLink />
      <AppHeader isNavOpen={isNavOpen} onToggleNav={nav.toggle} burgerId={BURGER_ID} preview={preview} />
      <AppShell.Navbar
        ref={navRef}
        p="xs"
        id="app-navbar"
        aria-labelledby="main-menu-label"
        className={`${classes.navbar} portal-menu`}
        mod={{ closed: !isNavOpen }}
      >
        <MainMenu />
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1} className={classes.main}>
        {(location.state as { hiddenSection?: boolean } | null)?.hiddenSection && (
          <Suspense fallback={null}>
            <HiddenSectionNotice />
          </Suspense>
        )}
        <Suspense fallback={<PageLoader />}>
          {/* Another contact is another tenant: pages start fresh instead of keeping the last one's state. */}
          {children ?? <Outlet key={tenantKey} />}
        </Suspense>
      </AppShell.Main>
      <AppFooter />
    </AppShell>
  );
}

function NoContacts() {
  const { t } = useTranslation();
  usePageTitle(t('layout.noContactsTitle'));
  const logout = useLogout();
  return (
    <Stack component="main" align="center" justify="center" mih="100dvh" p="md" ta="center">
      <Title order={1}>{t('layout.noContactsTitle')}</Title>
      <Text>{t('layout.noContactsText')}</Text>
      <Button variant="default" loading={logout.isPending} onClick={() => logout.mutate(loginPath(null))}>
        {t('common.logout')}
      </Button>
    </Stack>
  );
}
