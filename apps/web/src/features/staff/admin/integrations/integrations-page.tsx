import { useState } from 'react';
import { Badge, Button, Checkbox, Code, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import {
  apiKeyCreateSchema,
  apiKeyScopes,
  webhookEndpointCreateSchema,
  type ApiKeyScope,
} from '@sportello/contracts';
import { errorText } from '../../../../lib/error-text';
import { formatDateTime } from '../../../../lib/format';
import { usePageTitle } from '../../../../ui/page-title';
import {
  apiKeysKey,
  useApiKeys,
  useCreateApiKey,
  useCreateWebhook,
  useRevokeApiKey,
  useRotateApiKey,
  useWebhooks,
  webhooksKey,
} from '../api/integrations';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { creatorText } from './creator';
import { SecretOnce } from './secret-once';
import { badgeVars } from '../../components/badge-vars';
import { WebhookEndpointCard } from './webhook-endpoint';
import { QueryStates } from '../query-states';
import { AdminListEditor } from '../components/admin-list-editor';
import { validateWith } from '../components/contract-form';

type KeyForm = { name: string; scopes: ApiKeyScope[] };
const keyBody = (v: KeyForm) => ({ name: v.name.trim(), scopes: v.scopes });
const hookBody = (v: { url: string }) => ({ url: v.url.trim() });

/**
 * The portal's integrations (issue 14 item 5): API keys (created with scopes, the secret shown once;
 * rotated; revoked) and webhook endpoints with their delivery log, each edited, its secret rotated and
 * its events replayed from a cursor (webhook-endpoint.tsx).
 */
export default function IntegrationsPage() {
  const { t } = useStaffT();
  usePageTitle(t('admin.sections.integrations'));
  return (
    <Stack gap="xl">
      <Title order={1} size="h2">
        {t('admin.sections.integrations')}
      </Title>
      <KeysPanel />
      <WebhooksPanel />
    </Stack>
  );
}

function KeysPanel() {
  const { t } = useStaffT();
  const { company } = useDesk();
  const qc = useQueryClient();
  const key = apiKeysKey(company);
  const list = useApiKeys(company);
  // The key's name (1 to 100 characters) checked with the server's schema; no scope: no button.
  const form = useForm<KeyForm>({
    initialValues: { name: '', scopes: ['read'] },
    validate: validateWith(apiKeyCreateSchema, keyBody, () => t('auth.requiredField'), /^name$/),
  });
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: key });
  const onError = (e: unknown) => setError(errorText(e, t));
  const create = useCreateApiKey(company, {
    onSuccess: (k) => {
      form.setFieldValue('name', '');
      setSecret(k.secret);
      setError(null);
      refresh();
    },
    onError,
  });
  const rotate = useRotateApiKey(company, {
    onSuccess: (k) => {
      setSecret(k.secret);
      refresh();
    },
    onError,
  });
  // Its refusal is said in the confirmation.
  const revoke = useRevokeApiKey(company, { onSuccess: refresh });
  return (
    <AdminListEditor
      title={t('access.keys.title')}
      before={
        <>
          <form onSubmit={form.onSubmit((values) => create.mutate(keyBody(values)))} noValidate>
            <Group align="start" gap="sm" wrap="wrap">
              <TextInput
                required
                label={t('access.keys.name')}
                maxLength={100}
                {...form.getInputProps('name')}
              />
              <Checkbox.Group
                label={t('access.keys.scopes')}
                value={form.getValues().scopes}
                onChange={(v) => form.setFieldValue('scopes', v as ApiKeyScope[])}
              >
                <Group gap="sm" mt={6}>
                  {apiKeyScopes.map((s) => (
                    <Checkbox key={s} value={s} label={t(`access.keys.scope.${s}`)} />
                  ))}
                </Group>
              </Checkbox.Group>
              <Button
                type="submit"
                mt={{ base: 0, xs: 25 }}
                loading={create.isPending}
                disabled={form.getValues().scopes.length === 0}
              >
                {t('access.keys.create')}
              </Button>
            </Group>
          </form>
          {secret && (
            <SecretOnce label={t('access.keys.secret')} secret={secret} onClose={() => setSecret(null)} />
          )}
          {error && (
            <Text c="red" size="sm" role="alert">
              {error}
            </Text>
          )}
        </>
      }
      query={list}
      rows={(data) => data}
      rowKey={(k) => k.id}
      minWidth={760}
      highlightOnHover={false}
      empty={t('access.keys.empty')}
      columns={[
        { header: t('access.keys.name'), cell: (k) => k.name },
        { header: t('access.keys.prefix'), cell: (k) => <Code>{k.prefix}…</Code> },
        {
          header: t('access.keys.scopes'),
          cell: (k) => k.scopes.map((s) => t(`access.keys.scope.${s}`)).join(', '),
        },
        { header: t('access.keys.createdBy'), cell: (k) => creatorText(k.createdBy, t) },
        {
          header: t('access.keys.lastUsed'),
          td: { style: { whiteSpace: 'nowrap' } },
          cell: (k) => (k.lastUsedAt ? formatDateTime(k.lastUsedAt) : '—'),
        },
        {
          header: t('access.staff.actions'),
          cell: (k, act) =>
            k.revokedAt ? (
              <Badge color="gray" variant="light" vars={badgeVars('gray')}>
                {t('access.keys.revoked')}
              </Badge>
            ) : (
              <Group gap="xs" wrap="nowrap">
                <Button size="xs" variant="default" onClick={() => rotate.mutate(k.id)}>
                  {t('access.keys.rotate')}
                </Button>
                <Button size="xs" color="red" variant="light" onClick={act.remove}>
                  {t('access.keys.revoke')}
                </Button>
              </Group>
            ),
        },
      ]}
      // A revoked key stays in the list, marked.
      removal={{
        title: () => t('access.keys.revoke'),
        text: (k) => t('access.keys.revokeConfirm', { name: k.name }),
        action: t('access.keys.revoke'),
        cancel: t('access.staff.lose.cancel'),
        remove: (k) => revoke.mutateAsync(k.id),
      }}
    />
  );
}

function WebhooksPanel() {
  const { t } = useStaffT();
  const { company } = useDesk();
  const qc = useQueryClient();
  const key = webhooksKey(company);
  const list = useWebhooks(company);
  // An http(s) address of at most 2000 characters: the server's rule, checked before sending.
  const form = useForm({
    initialValues: { url: '' },
    validate: validateWith(webhookEndpointCreateSchema, hookBody, () => t('access.hooks.badUrl')),
  });
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: key });
  const create = useCreateWebhook(company, {
    onSuccess: (w) => {
      form.reset();
      setSecret(w.secret);
      setError(null);
      refresh();
    },
    onError: (e: unknown) => setError(errorText(e, t)),
  });
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        {t('access.hooks.title')}
      </Title>
      <form onSubmit={form.onSubmit((values) => create.mutate(hookBody(values).url))} noValidate>
        <Group align="start" gap="sm" wrap="wrap">
          <TextInput
            required
            type="url"
            label={t('access.hooks.url')}
            maxLength={2000}
            {...form.getInputProps('url')}
            miw={{ base: '100%', xs: 320 }}
          />
          <Button type="submit" mt={{ base: 0, xs: 25 }} loading={create.isPending}>
            {t('access.hooks.add')}
          </Button>
        </Group>
      </form>
      {secret && (
        <SecretOnce label={t('access.hooks.secret')} secret={secret} onClose={() => setSecret(null)} />
      )}
      {error && (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      )}
      <QueryStates query={list} isEmpty={(data) => data.length === 0} empty={t('access.hooks.empty')}>
        {(data) => data.map((w) => <WebhookEndpointCard key={w.id} endpoint={w} onChanged={refresh} />)}
      </QueryStates>
    </Stack>
  );
}
