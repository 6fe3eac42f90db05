import type { ReactNode } from 'react';
import { Box, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PortalSettings } from '@sportello/contracts';
import { headerColors } from '../../../lib/branding';
import { LanguagePicker } from '../../../ui/language-picker';
import { PortalLogo } from '../../../ui/portal-logo';
import { MAIN_CONTENT_ID, SkipLink } from '../../../ui/skip-link';

/**
 * The frame of the public signing page: the portal's branding (header in its base colour, logo,
 * name), a language picker and the main region. An unknown portal gets the default look.
 */
export function SignFrame({ portal, children }: { portal: PortalSettings | null; children: ReactNode }) {
  const { t } = useTranslation();
  const colors = headerColors(portal?.baseColor);
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
        py={{ base: 'md', sm: 'xl' }}
        px={{ base: 'sm', sm: 'md' }}
        maw={1240}
        w="100%"
        mx="auto"
        style={{ flex: 1, outline: 'none' }}
      >
        {children}
      </Box>
    </Box>
  );
}
