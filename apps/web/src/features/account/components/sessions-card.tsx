import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconDeviceDesktop, IconDeviceMobile, IconDeviceTablet } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AccountSession } from '@sportello/contracts';
import { useNavigate } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { storage } from '../../../lib/storage';
import { useTenant } from '../../../lib/tenant';
import { ListError } from '../../../ui/list-states';
import { sessionsQuery, useEndAllSessions, useEndSession } from '../api/sessions';
import { Outcome, Section } from './section';

const DeviceIcon = ({ device }: { device: AccountSession['device'] }) => {
  const Icon =
    device === 'mobile' ? IconDeviceMobile : device === 'tablet' ? IconDeviceTablet : IconDeviceDesktop;
  return <Icon size={22} aria-hidden />;
};

/** The user's live sessions, with "sign out" on each and "sign out everywhere". */
export function SessionsCard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { company } = useTenant();
  const sessions = useQuery(sessionsQuery());
  const endOne = useEndSession();
  const endAll = useEndAllSessions();

  const leave = () => {
    storage.set('token', null);
    navigate(`/${encodeURIComponent(company)}/Login`, { replace: true });
  };

  return (
    <Section title={t('account.sessions.title')} id="account-sessions">
      <Text size="sm">{t('account.sessions.intro')}</Text>
      {sessions.isError && <ListError onRetry={() => void sessions.refetch()} />}
      <Stack
        gap="sm"
        component="ul"
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
        aria-label={t('account.sessions.title')}
      >
        {sessions.data?.map((s) => {
          const what =
            s.browser && s.os
              ? t('account.sessions.browserOn', { browser: s.browser, os: s.os })
              : (s.browser ?? s.os ?? t('account.sessions.unknownDevice'));
          return (
            <Group
              key={s.id}
              component="li"
              justify="space-between"
              wrap="wrap"
              gap="sm"
              data-testid="session-row"
              data-current={s.current || undefined}
            >
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <DeviceIcon device={s.device} />
                <Stack gap={2}>
                  <Group gap="xs">
                    <Text fw={600}>{what}</Text>
                    {s.current && (
                      <Badge color="blue.9" variant="outline">
                        {t('account.sessions.current')}
                      </Badge>
                    )}
                  </Group>
                  <Text size="sm" c="gray.7">
                    {t('account.sessions.details', {
                      address: s.address ?? '—',
                      seen: formatDateTime(s.lastSeenAt),
                    })}
                  </Text>
                  <Text size="xs" c="gray.7">
                    {t(s.remember ? 'account.sessions.remembered' : 'account.sessions.until', {
                      date: formatDateTime(s.expiresAt),
                    })}
                  </Text>
                </Stack>
              </Group>
              <Button
                variant="default"
                size="xs"
                loading={endOne.isPending && endOne.variables === s.id}
                onClick={() => endOne.mutate(s.id, { onSuccess: () => s.current && leave() })}
                aria-label={t('account.sessions.endLabel', { what })}
              >
                {t('account.sessions.end')}
              </Button>
            </Group>
          );
        })}
      </Stack>
      <Outcome error={endOne.error ?? endAll.error} />
      <Group>
        <Button
          color="red"
          variant="light"
          loading={endAll.isPending}
          onClick={() => endAll.mutate(undefined, { onSuccess: leave })}
        >
          {t('account.sessions.endAll')}
        </Button>
      </Group>
    </Section>
  );
}
