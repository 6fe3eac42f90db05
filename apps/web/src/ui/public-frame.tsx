import { useEffect, type ReactNode } from 'react';
import { Box, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PortalSettings } from '@sportello/contracts';
import { headerColors, useActivePortal, usePortalBranding } from '../lib/branding';
import { setDisplayTimeZone } from '../lib/time-zone';
import { portalSettingsQuery } from '../lib/tenant';
import { LanguagePicker } from './language-picker';
import { PortalLogo } from './portal-logo';
import { MAIN_CONTENT_ID, SkipLink } from './skip-link';

/**
 * The portal named in a public page's URL (booking, cancellation, task): its branding applies while
 * the page is mounted and its time zone drives every date shown. An unknown portal gives null (the
 * default look); the page's own call then says whether the link exists. Undefined while it loads.
 */
export function usePublicPortal(company: string): PortalSettings | null | undefined {
  const portal = useQuery({ ...portalSettingsQuery(company), enabled: company !== '', retry: false });
  usePortalBranding(portal.data ?? null);
  const timeZone = portal.data?.timeZone;
  useEffect(() => {
    if (timeZone) setDisplayTimeZone(timeZone);
  }, [timeZone]);
  return portal.isLoading ? undefined : (portal.data ?? null);
}

/** Header in the portal's base colour with its logo and name, a language picker, and the main region. */
export function PublicFrame({
  portal,
  children,
  maxWidth = 1040,
}: {
  portal: PortalSettings | null | undefined;
  children: ReactNode;
  maxWidth?: number;
}) {
  const { t } = useTranslation();
  const colors = headerColors(portal?.baseColor);
  // Busy while the portal's settings load or its branding (the theme's colours) is not applied yet: the
  // frame drawn by the server (app/customer-frame.ts) stands until then, so no default colour flashes.
  const activeKey = useActivePortal((p) => p?.webPortalKey ?? null);
  const isBusy = portal === undefined || (portal !== null && activeKey !== portal.webPortalKey);
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <Box component="header" px="md" py={8} style={{ background: colors.background, color: colors.color }}>
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <PortalLogo logoUrl={portal?.logoUrl} alt="" />
            <Text fw={600} truncate>
              {portal?.webPortalName ?? t('common.appName')}
            </Text>
          </Group>
          <LanguagePicker />
        </Group>
      </Box>
      <Box
        component="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        aria-busy={isBusy || undefined}
        py={{ base: 'md', sm: 'xl' }}
        px={{ base: 'sm', sm: 'md' }}
        maw={maxWidth}
        w="100%"
        mx="auto"
        style={{ flex: 1, outline: 'none' }}
      >
        {children}
      </Box>
    </Box>
  );
}

/** Unknown and foreign keys look the same: the page says nothing about which it was. */
export function PublicNotFound({ title, text, icon }: { title: string; text: string; icon?: ReactNode }) {
  return (
    <Stack align="center" gap="sm" py="xl" maw={560} mx="auto" ta="center">
      {icon}
      <Title order={1}>{title}</Title>
      <Text>{text}</Text>
    </Stack>
  );
}
