import type { ReactNode } from 'react';
import { Anchor, Stack, Text, Title } from '@mantine/core';
import type { MeContact } from '@sportello/contracts';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useParams } from 'react-router';
import { storage } from '../../lib/storage';
import { useTenant } from '../../lib/tenant';
import { landingSection } from '../sections';
import { usePageTitle } from '../../ui/page-title';

/**
 * A layout route the contact may not open goes to the dashboard, which picks the first section it may
 * see (SPEC A2 guard for my tickets, A6 for the lists), and the shell says why (`hiddenSection`). The
 * server refuses the same calls anyway.
 */
const HIDDEN_SECTION = { hiddenSection: true };

export function RequireContact({
  allow,
  children,
}: {
  allow: (c: MeContact) => boolean;
  children: ReactNode;
}) {
  const { contact, basePath } = useTenant();
  if (!allow(contact)) return <Navigate to={basePath} replace state={HIDDEN_SECTION} />;
  return <>{children}</>;
}

/**
 * The empty child path: straight to the first section the contact may see (SPEC A2 order), or to the
 * overview when the portal makes it the landing screen.
 */
export function DashboardRedirect() {
  const { t } = useTranslation();
  usePageTitle(t('dashboard.title'));
  const { contact, basePath } = useTenant();
  // What the guard said goes on with the redirect to the section.
  const { state } = useLocation();
  const section = landingSection(contact);
  if (section) return <Navigate to={`${basePath}/${section}`} replace state={state} />;
  return (
    <Stack>
      <Title order={1}>{t('dashboard.title')}</Title>
      <Text>{t('dashboard.empty')}</Text>
    </Stack>
  );
}

/** An unknown path under a contact. */
export function NotFoundPage() {
  const { t } = useTranslation();
  usePageTitle(t('common.notFoundTitle'));
  const { basePath } = useTenant();
  return (
    <Stack>
      <Title order={1}>{t('common.notFoundTitle')}</Title>
      <Text>{t('common.notFoundText')}</Text>
      <Anchor component={Link} to={basePath}>
        {t('common.goHome')}
      </Anchor>
    </Stack>
  );
}

/**
 * `/{company}/Notifications` (issue 16, linked from the profile): the user's notifications page under the
 * contact last used in that portal; without one, the layout picks the contact (and its first section).
 */
export function NotificationsRedirect() {
  const { company } = useParams();
  const remembered = storage.get('company');
  const contactId = storage.get('contactId');
  const same = !!company && !!remembered && remembered.toLowerCase() === company.toLowerCase();
  if (same && contactId) return <Navigate to={`/${company}/${contactId}/notifications`} replace />;
  return <Navigate to={company ? `/${company}` : '/'} replace />;
}
