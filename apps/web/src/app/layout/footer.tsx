import { lazy, Suspense } from 'react';
import { Anchor, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { importAfterContent } from '../../lib/first-content';
import { useTenant } from '../../lib/tenant';
import classes from './shell.module.css';

// DOMPurify is needed only by portals with footer HTML, and not before the page itself: a chunk of its own,
// asked for after the page's content on a first load (the footer is below the fold; the overview's cards
// do not need DOMPurify, and loaded before them it shared a slow phone's link with them).
const SafeHtml = lazy(() =>
  importAfterContent(() => import('../../ui/safe-html')).then((m) => ({ default: m.SafeHtml })),
);

/** The portal's footer HTML (sanitised again here), or a default company line; plus the privacy terms. */
export function AppFooter() {
  const { t } = useTranslation();
  const { contact, company } = useTenant();
  const settings = contact.portalSettings;
  const hasCustom = settings.footerCustomHtml.trim() !== '';
  return (
    <footer className={`${classes.footer} portal-footer`}>
      <Group justify="space-between" align="flex-start" gap="sm">
        {hasCustom ? (
          <Suspense fallback={<div style={{ flex: 1 }} />}>
            <SafeHtml
              html={settings.footerCustomHtml}
              fz="sm"
              data-testid="footer-custom"
              style={{ minWidth: 0, flex: 1 }}
            />
          </Suspense>
        ) : (
          <Text size="sm">
            {t('layout.footerDefault', {
              year: new Date().getFullYear(),
              portal: settings.webPortalName,
              company: contact.companyName,
            })}
          </Text>
        )}
        <Anchor component={Link} to={`/${encodeURIComponent(company)}/privacy`} size="sm">
          {t('auth.privacyLink')}
        </Anchor>
      </Group>
    </footer>
  );
}
