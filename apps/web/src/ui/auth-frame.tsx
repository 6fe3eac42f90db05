import type { ReactNode } from 'react';
import { Anchor, Box, Group, Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { headerColors, usePortalBranding } from '../lib/branding';
import { portalSettingsQuery } from '../lib/tenant';
import { LanguagePicker } from './language-picker';
import { PortalLogo } from './portal-logo';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';

/**
 * The frame of the pages shown before sign-in (login, confirm, privacy): the portal's public branding
 * (`GET /api/Settings/portals/{company}`), a language picker and a link to the privacy terms. An unknown
 * portal simply gets the default look.
 */
export function AuthFrame({
  company,
  children,
  showPrivacyLink = true,
  wide = false,
  area,
}: {
  company: string | null;
  children: ReactNode;
  showPrivacyLink?: boolean;
  wide?: boolean;
  /** Which side of the portal this is, after its name (the staff desk's sign-in says "Staff desk"). */
  area?: string;
}) {
  const { t } = useTranslation();
  const settings = useQuery({ ...portalSettingsQuery(company ?? ''), enabled: !!company, retry: false });
  const portal = settings.data ?? null;
  usePortalBranding(portal);
  const colors = headerColors(portal?.baseColor);
  // Until the portal's settings answer, its place stays empty: the default mark and name drawn meanwhile
  // were swapped for the portal's own a moment later.
  const isWaiting = !!company && settings.isPending;
  const name = isWaiting ? '' : (portal?.webPortalName ?? t('common.appName'));
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <Box
        component="header"
        px="md"
        py={8}
        style={{ background: colors.background, color: colors.color }}
        data-testid="auth-header"
      >
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap" miw={0}>
            {isWaiting ? (
              <span style={{ display: 'block', width: 36, height: 40 }} data-testid="logo-pending" />
            ) : (
              <PortalLogo logoUrl={portal?.logoUrl} alt="" />
            )}
            <Text fw={600} truncate>
              {name}
            </Text>
            {area && (
              <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
                {area}
              </Text>
            )}
          </Group>
          <LanguagePicker />
        </Group>
      </Box>
      <Box
        component="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        py="xl"
        px="md"
        style={{ flex: 1, outline: 'none' }}
      >
        <Paper maw={wide ? 820 : 440} mx="auto" p={{ base: 'md', sm: 'lg' }} withBorder radius="md">
          {children}
        </Paper>
      </Box>
      {showPrivacyLink && (
        <Box component="footer" py="md" px="md" ta="center">
          <Anchor
            component={Link}
            to={company ? `/${encodeURIComponent(company)}/privacy` : '/privacy'}
            size="sm"
          >
            {t('auth.privacyLink')}
          </Anchor>
        </Box>
      )}
    </Box>
  );
}
