import { Button, Card, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  notificationKinds,
  type Notification,
  type NotificationKind,
  type NotificationPreferences,
} from '@sportello/contracts';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/error-text';
import { useTenant } from '../../lib/tenant';
import { ListError, ListLoading } from '../../ui/list-states';
import { usePageTitle } from '../../ui/page-title';
import { preferencesQuery, useBell, useMarkRead, useSavePreferences } from './api/notifications';
import { NotificationItem } from './notification-item';
import classes from './notifications.module.css';

/** `/{company}/{contactid}/notifications`: the e-mail switches and the latest notifications. */
export default function NotificationsPage() {
  const { t } = useTranslation();
  usePageTitle(t('notifications.title'));
  const { company, contactId } = useTenant();
  const bell = useBell(company, contactId);
  const markRead = useMarkRead(company, contactId);
  const open = (n: Notification) => {
    if (!n.read) markRead.mutate({ ids: [n.id] });
  };
  return (
    <Stack gap="lg" maw={720}>
      <Title order={1}>{t('notifications.title')}</Title>
      <Preferences />
      <section aria-labelledby="latest-notifications">
        <Group justify="space-between" mb="xs">
          <Title order={2} size="h3" id="latest-notifications">
            {t('notifications.latest')}
          </Title>
          <Button
            variant="default"
            size="xs"
            disabled={!bell.data?.unread || markRead.isPending}
            onClick={() => markRead.mutate({ all: true })}
          >
            {t('notifications.markAllRead')}
          </Button>
        </Group>
        {bell.isPending ? (
          <ListLoading rows={3} />
        ) : bell.isError ? (
          <ListError onRetry={() => void bell.refetch()} />
        ) : bell.data.items.length === 0 ? (
          <Text c="dimmed">{t('notifications.empty')}</Text>
        ) : (
          <Stack component="ul" gap={2} className={classes.list}>
            {bell.data.items.map((n) => (
              <li key={n.id}>
                <NotificationItem item={n} onOpen={open} />
              </li>
            ))}
          </Stack>
        )}
      </section>
    </Stack>
  );
}

/** One switch per kind; each change is saved at once (the answer is what the server kept). */
function Preferences() {
  const { t } = useTranslation();
  const { company, contactId } = useTenant();
  const prefs = useQuery(preferencesQuery(company, contactId));
  const save = useSavePreferences(company, contactId);
  const toggle = (kind: NotificationKind, on: boolean) => {
    if (!prefs.data) return;
    const next: NotificationPreferences = { ...prefs.data, [kind]: on };
    save.mutate(next);
  };
  const shown = save.isPending && save.variables ? save.variables : prefs.data;
  return (
    <Card withBorder component="section" aria-labelledby="email-switches">
      <Title order={2} size="h3" id="email-switches" mb={4}>
        {t('notifications.emailTitle')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('notifications.emailIntro')}
      </Text>
      {prefs.isPending ? (
        <ListLoading rows={2} />
      ) : prefs.isError ? (
        <ListError onRetry={() => void prefs.refetch()} />
      ) : (
        <Stack gap="sm">
          {notificationKinds.map((kind) => (
            <Switch
              key={kind}
              label={t(`notifications.switches.${kind}`)}
              checked={shown?.[kind] ?? true}
              onChange={(e) => toggle(kind, e.currentTarget.checked)}
              disabled={save.isPending}
              data-testid={`switch-${kind}`}
            />
          ))}
          {save.isError && (
            <Text size="sm" c="red" role="alert">
              {errorText(save.error, t)}
            </Text>
          )}
        </Stack>
      )}
    </Card>
  );
}
