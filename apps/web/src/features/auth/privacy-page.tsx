import { useMemo } from 'react';
import { Anchor, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { storage } from '../../lib/storage';
import { ListError } from '../../ui/list-states';
import { SafeHtml } from '../../ui/safe-html';
import { usePrivacy } from './api/privacy';
import { AuthFrame } from '../../ui/auth-frame';
import { usePageTitle } from '../../ui/page-title';

/**
 * The page has one h1: a leading h1 of the portal's HTML becomes the page title, and the remaining
 * headings move one level down so they sit under it.
 */
export function fitPrivacyHtml(html: string): { title: string | null; body: string } {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const first = doc.body.firstElementChild;
  let title: string | null = null;
  if (first?.tagName === 'H1') {
    title = first.textContent?.trim() || null;
    first.remove();
  }
  for (const h of Array.from(doc.body.querySelectorAll('h1, h2, h3, h4, h5'))) {
    const lower = doc.createElement(`h${Number(h.tagName[1]) + 1}`);
    lower.append(...Array.from(h.childNodes));
    for (const a of Array.from(h.attributes)) lower.setAttribute(a.name, a.value);
    h.replaceWith(lower);
  }
  return { title, body: doc.body.innerHTML };
}

/**
 * `/{company}/privacy`: the portal's privacy terms. Open without sign-in, because the login page links
 * here and the terms must be readable before one signs in.
 */
export default function PrivacyPage() {
  const { t } = useTranslation();
  const params = useParams();
  const company = params.company ?? storage.get('company');
  const privacy = usePrivacy(company);
  const back = company
    ? storage.get('token')
      ? `/${encodeURIComponent(company)}`
      : `/${encodeURIComponent(company)}/Login`
    : '/Login';

  const fitted = useMemo(
    () => (privacy.data?.html ? fitPrivacyHtml(privacy.data.html) : null),
    [privacy.data],
  );
  usePageTitle(fitted?.title ?? t('auth.privacyTitle'));
  let body;
  if (!company) body = <Text>{t('auth.privacyNoPortal')}</Text>;
  else if (privacy.isPending)
    body = (
      <Stack gap="xs" role="status" aria-label={t('common.loading')}>
        <Skeleton height={16} />
        <Skeleton height={16} />
        <Skeleton height={16} width="60%" />
      </Stack>
    );
  else if (privacy.isError) body = <ListError onRetry={() => void privacy.refetch()} />;
  else if (!privacy.data.html.trim()) body = <Text>{t('auth.privacyEmpty')}</Text>;
  else body = <SafeHtml html={fitted?.body} />;

  return (
    <AuthFrame company={company} showPrivacyLink={false} wide>
      <Stack gap="md">
        <Anchor
          component={Link}
          to={back}
          size="sm"
          style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
        >
          <IconArrowLeft size={16} aria-hidden />
          {t('common.back')}
        </Anchor>
        <Title order={1} size="h2">
          {fitted?.title ?? t('auth.privacyTitle')}
        </Title>
        {body}
      </Stack>
    </AuthFrame>
  );
}
