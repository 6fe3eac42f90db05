import { useEffect, useMemo, useState, type MouseEvent } from 'react';
import { Anchor, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { permissionFlags, type MeContact, type PortalSettings } from '@sportello/contracts';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isPreviewSettings, PREVIEW_READY } from '../../lib/branding-preview';
import { usePortalBranding } from '../../lib/branding';
import { TenantContext, type Tenant } from '../../lib/tenant';
import { FullScreenSpinner } from './spinners';
import { Shell } from './shell-layout';

/**
 * `/{portal}/branding-preview`: the portal's own shell (header, menu, footer, theme and custom CSS)
 * around a sample page, wearing the settings a staff admin is drafting in the desk's Branding
 * section, which frames this page and sends the draft by postMessage. Only a message of this origin
 * from the framing window is read; nothing is fetched or stored as a user, and links go nowhere.
 */
export default function BrandingPreviewPage() {
  const { company = '' } = useParams();
  const { t } = useTranslation();
  const [settings, setSettings] = useState<PortalSettings | null>(null);

  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      if (e.origin !== window.location.origin || e.source !== window.parent) return;
      if (isPreviewSettings(e.data)) setSettings(e.data.settings);
    };
    window.addEventListener('message', onMessage);
    if (window.parent !== window) window.parent.postMessage({ type: PREVIEW_READY }, window.location.origin);
    return () => window.removeEventListener('message', onMessage);
  }, []);
  usePortalBranding(settings);

  const tenant = useMemo<Tenant | null>(() => {
    if (!settings) return null;
    const contact: MeContact = {
      contactId: 0,
      companyName: t('brandingPreview.company'),
      // Every section but the company administrator's, so the whole menu shows.
      ...(Object.fromEntries(permissionFlags.map((f) => [f, f !== 'administrator'])) as Record<
        (typeof permissionFlags)[number],
        boolean
      >),
      portalSettings: settings,
    };
    return {
      company,
      contactId: 0,
      contact,
      user: {
        id: 0,
        userName: t('brandingPreview.user'),
        displayName: null,
        language: null,
        contacts: [contact],
        maxUploadBytes: 1,
      },
      basePath: `/${encodeURIComponent(company)}/0`,
    };
  }, [settings, company, t]);

  if (!tenant) return <FullScreenSpinner />;
  // A preview: following a link would leave it (and sign-in would be asked for).
  const stay = (e: MouseEvent) => {
    if ((e.target as Element).closest('a')) e.preventDefault();
  };
  return (
    <TenantContext.Provider value={tenant}>
      <div onClickCapture={stay} data-testid="branding-preview">
        <Shell tenantKey="preview" preview>
          <Stack gap="md" maw={640}>
            <Title order={1}>{t('brandingPreview.title')}</Title>
            <Card withBorder>
              <Stack gap="sm">
                <Text>{t('brandingPreview.text')}</Text>
                <TextInput
                  label={t('brandingPreview.field')}
                  placeholder={t('brandingPreview.placeholder')}
                />
                <Group>
                  <Button>{t('brandingPreview.button')}</Button>
                  <Button variant="light">{t('brandingPreview.secondary')}</Button>
                  <Anchor href="#">{t('brandingPreview.link')}</Anchor>
                </Group>
              </Stack>
            </Card>
          </Stack>
        </Shell>
      </div>
    </TenantContext.Provider>
  );
}
