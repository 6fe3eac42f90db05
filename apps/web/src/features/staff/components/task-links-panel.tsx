import { useState } from 'react';
import { Alert, Button, CopyButton, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCopy, IconLink, IconTrash } from '@tabler/icons-react';
import { errorText } from '../../../lib/error-text';
import { taskPageUrl, useCreateTaskLink, useRevokeTaskLink, useTaskLinks } from '../api/task-links';
import { useStaffT } from '../i18n';

/**
 * "Share a task page link" (SPEC A2, the task page: a ticket's read-only page reached by an unguessable
 * key, no sign-in): make one and copy it, see the ticket's links, revoke one after a confirmation (the
 * page then answers as for an unknown key). Any staff member of the portal may.
 */
export function TaskLinksPanel({ company, ticketId }: { company: string; ticketId: number }) {
  const { t } = useStaffT();
  const links = useTaskLinks(company, ticketId);
  const create = useCreateTaskLink(company, ticketId);
  const revoke = useRevokeTaskLink(company, ticketId);
  const [status, setStatus] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);

  const onCreate = () => {
    setStatus(null);
    create.mutate(undefined, {
      onSuccess: () => setStatus(t('taskLinks.created')),
      onError: (e) => setStatus(t('taskLinks.failed', { reason: errorText(e, t) })),
    });
  };
  const onRevoke = (eventKey: string) =>
    revoke.mutate(eventKey, {
      onSuccess: () => {
        setRevoking(null);
        setStatus(t('taskLinks.revoked'));
      },
      onError: (e) => {
        setRevoking(null);
        setStatus(t('taskLinks.failed', { reason: errorText(e, t) }));
      },
    });

  const items = links.data?.items ?? [];
  return (
    <Paper component="section" withBorder p="md" aria-labelledby="task-links-title" data-testid="task-links">
      <Stack gap="sm">
        <Title order={2} size="h4" id="task-links-title">
          {t('taskLinks.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('taskLinks.hint')}
        </Text>
        {links.isError && (
          <Alert color="red" variant="light">
            {errorText(links.error, t)}
          </Alert>
        )}
        {links.isSuccess && items.length === 0 && (
          <Text size="sm" data-testid="task-links-empty">
            {t('taskLinks.empty')}
          </Text>
        )}
        {items.map((link, i) => {
          const url = taskPageUrl(company, link.eventKey);
          return (
            <Stack key={link.eventKey} gap={4} data-testid="task-link">
              <TextInput
                label={t('taskLinks.linkLabel', { n: i + 1 })}
                value={url}
                readOnly
                onFocus={(e) => e.currentTarget.select()}
                styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
              />
              <Group gap="xs">
                <CopyButton value={url}>
                  {({ copied, copy }) => (
                    <Button
                      size="xs"
                      variant="light"
                      leftSection={<IconCopy size={14} aria-hidden />}
                      onClick={() => {
                        copy();
                        setStatus(t('taskLinks.copied'));
                      }}
                      aria-label={t('taskLinks.copyOf', { n: i + 1 })}
                    >
                      {copied ? t('taskLinks.copiedShort') : t('taskLinks.copy')}
                    </Button>
                  )}
                </CopyButton>
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  leftSection={<IconTrash size={14} aria-hidden />}
                  onClick={() => setRevoking(link.eventKey)}
                  aria-label={t('taskLinks.revokeOf', { n: i + 1 })}
                >
                  {t('taskLinks.revoke')}
                </Button>
              </Group>
            </Stack>
          );
        })}
        <Button
          variant="default"
          size="xs"
          w="fit-content"
          leftSection={<IconLink size={14} aria-hidden />}
          onClick={onCreate}
          loading={create.isPending}
          data-testid="task-link-create"
        >
          {t('taskLinks.share')}
        </Button>
        <Text size="sm" role="status" aria-live="polite" data-testid="task-links-status">
          {status}
        </Text>
      </Stack>
      <Modal
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={t('taskLinks.revokeTitle')}
        closeButtonProps={{ 'aria-label': t('close') }}
      >
        <Stack gap="md">
          <Text size="sm">{t('taskLinks.revokeConfirm')}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setRevoking(null)}>
              {t('catalog.cancel')}
            </Button>
            <Button
              color="red"
              loading={revoke.isPending}
              onClick={() => revoking && onRevoke(revoking)}
              data-testid="task-link-revoke-confirm"
            >
              {t('taskLinks.revoke')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
