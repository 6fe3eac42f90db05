import { useEffect, useRef } from 'react';
import { Alert, Anchor, Loader, Stack, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { storage } from '../../lib/storage';
import { PublicFrame, usePublicPortal } from '../../ui/public-frame';
import { usePageTitle } from '../../ui/page-title';
import { useConfirmEmail } from './api/email';
import { accountErrorKey } from './errors';

/** `/confirm-email?token=…`: the link mailed to a new address; opening it makes the change. */
export default function ConfirmEmailPage() {
  const { t } = useTranslation();
  usePageTitle(t('account.confirmEmail.title'));
  const [params] = useSearchParams();
  const token = params.get('token');
  const company = storage.get('company');
  const portal = usePublicPortal(company ?? '');
  const mutation = useConfirmEmail();
  const sent = useRef(false);
  useEffect(() => {
    // Once per page (StrictMode runs effects twice; the link works only once).
    if (!token || sent.current) return;
    sent.current = true;
    mutation.mutate(token);
  }, [token, mutation]);

  return (
    <PublicFrame portal={portal} maxWidth={560}>
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('account.confirmEmail.title')}
        </Title>
        {!token ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
            {t('auth.linkMissing')}
          </Alert>
        ) : mutation.isSuccess ? (
          <Alert color="green" variant="light" icon={<IconCircleCheck aria-hidden />} role="status">
            {t('account.confirmEmail.done', { email: mutation.data.email })}
          </Alert>
        ) : mutation.isError ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
            {t(accountErrorKey(mutation.error) ?? 'auth.requestFailed')}
          </Alert>
        ) : (
          <Loader aria-label={t('common.loading')} />
        )}
        <Anchor component={Link} to={company ? `/${encodeURIComponent(company)}` : '/'} size="sm">
          {t('account.confirmEmail.open')}
        </Anchor>
      </Stack>
    </PublicFrame>
  );
}
