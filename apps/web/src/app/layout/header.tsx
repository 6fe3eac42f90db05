import { lazy, Suspense } from 'react';
import { AppShell, Burger, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { headerColors } from '../../lib/branding';
import { importAfterContent } from '../../lib/first-content';
import { useTenant } from '../../lib/tenant';
import { PortalLogo } from '../../ui/portal-logo';
import { SearchButton } from '../../features/search/search-button';
import classes from './shell.module.css';

// The three header menus (Mantine Menu, Popover and floating-ui: about 20 KB gzip) and the bell load
// after the first paint, and on My tickets after its list (lib/first-content); until then the logo and
// company name show without the menu.
const CompanySwitcher = lazy(() =>
  importAfterContent(() => import('./company-switcher')).then((m) => ({ default: m.CompanySwitcher })),
);
const LanguagePicker = lazy(() =>
  importAfterContent(() => import('../../ui/language-picker')).then((m) => ({ default: m.LanguagePicker })),
);
const UserBadge = lazy(() =>
  importAfterContent(() => import('./user-badge')).then((m) => ({ default: m.UserBadge })),
);
const NotificationBell = lazy(() =>
  importAfterContent(() => import('../../features/notifications/notification-bell')).then((m) => ({
    default: m.NotificationBell,
  })),
);

/** What the company switcher shows, without its menu: the first paint of the header. */
function CompanyFace() {
  const { contact } = useTenant();
  return (
    <div className={classes.headerButton}>
      <PortalLogo logoUrl={contact.portalSettings.logoUrl} alt="" />
      <span className={classes.companyName}>{contact.companyName}</span>
    </div>
  );
}

/** Logo and company switcher, the one search (Ctrl+K), notifications, language, user badge, on the portal's colour (SPEC A2). */
export function AppHeader({
  isNavOpen,
  onToggleNav,
  burgerId,
  preview,
}: {
  isNavOpen: boolean;
  onToggleNav: () => void;
  burgerId: string;
  /** The desk's branding preview: no notifications bell (it polls as the signed-in contact). */
  preview?: boolean;
}) {
  const { t } = useTranslation();
  const { contact } = useTenant();
  const colors = headerColors(contact.portalSettings.baseColor);
  return (
    <AppShell.Header
      className={`${classes.header} portal-header`}
      style={{ background: colors.background, color: colors.color, borderBottom: 'none' }}
      data-testid="app-header"
    >
      <Group h="100%" px={{ base: 'xs', sm: 'md' }} justify="space-between" wrap="nowrap" gap="xs">
        <Group gap="xs" wrap="nowrap" miw={0} className={classes.switcherSlot}>
          <Burger
            id={burgerId}
            opened={isNavOpen}
            onClick={onToggleNav}
            hiddenFrom="sm"
            size="sm"
            color={colors.color}
            aria-label={t('layout.openNavigation')}
            aria-expanded={isNavOpen}
            aria-controls="app-navbar"
          />
          <Suspense fallback={<CompanyFace />}>
            <CompanySwitcher />
          </Suspense>
        </Group>
        <Group gap={4} wrap="nowrap" className={classes.rightButtons}>
          <SearchButton className={classes.headerButton} hideLabelClass={classes.hideXs} />
          <Suspense fallback={null}>
            {!preview && <NotificationBell className={classes.headerButton} />}
            <LanguagePicker className={classes.headerButton} />
            <UserBadge headerColors={colors} />
          </Suspense>
        </Group>
      </Group>
    </AppShell.Header>
  );
}
