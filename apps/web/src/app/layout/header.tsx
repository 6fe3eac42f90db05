import { AppShell, Burger, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { headerColors } from '../../lib/branding';
import { useTenant } from '../../lib/tenant';
import { LanguagePicker } from '../../ui/language-picker';
import { CompanySwitcher } from './company-switcher';
import { TicketSearch } from './ticket-search';
import { UserBadge } from './user-badge';
import classes from './shell.module.css';

/** Logo and company switcher, ticket search, language, user badge, on the portal's colour (SPEC A2). */
export function AppHeader({
  isNavOpen,
  onToggleNav,
  burgerId,
}: {
  isNavOpen: boolean;
  onToggleNav: () => void;
  burgerId: string;
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
        <Group gap="xs" wrap="nowrap" miw={0}>
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
          <CompanySwitcher />
        </Group>
        <Group gap={4} wrap="nowrap">
          {contact.manageTickets && <TicketSearch />}
          <LanguagePicker className={classes.headerButton} />
          <UserBadge headerColors={colors} />
        </Group>
      </Group>
    </AppShell.Header>
  );
}
