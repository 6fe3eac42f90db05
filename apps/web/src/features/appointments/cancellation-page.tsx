import { useEffect, useRef, useState } from 'react';
import { Alert, Badge, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconCalendarOff, IconCalendarX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { AppointmentSummary } from '@sportello/contracts';
import { ApiRequestError } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { setDisplayTimeZone } from '../../lib/time-zone';
import { ListError } from '../../ui/list-states';
import { PublicFrame, PublicNotFound, usePublicPortal } from '../../ui/public-frame';
import { useAppointment, useCancelAppointment } from './api/appointment';
import { SummaryList } from '../../ui/summary-list';
import { useWhenText } from './components/appointment-summary';
import { usePageTitle } from '../../ui/page-title';

/**
 * `/appointments/{company}/cancellation/{key}` (SPEC A2), open without sign-in: the appointment the
 * key names, and a Cancel button with a confirmation. A cancelled one says so; cancelling twice is
 * harmless on the server too.
 */
export default function CancellationPage() {
  const { company = '', eventkey = '' } = useParams();
  const portal = usePublicPortal(company);
  return (
    <PublicFrame portal={portal} maxWidth={760}>
      {company && eventkey ? <CancellationContent company={company} cancelKey={eventkey} /> : <NotFound />}
    </PublicFrame>
  );
}

function NotFound() {
  const { t } = useTranslation();
  return (
    <PublicNotFound
      title={t('appointments.cancellation.notFoundTitle')}
      text={t('appointments.cancellation.notFoundText')}
      icon={<IconCalendarOff size={48} aria-hidden stroke={1.5} />}
    />
  );
}

function CancellationContent({ company, cancelKey }: { company: string; cancelKey: string }) {
  const { t } = useTranslation();
  const query = useAppointment(company, cancelKey);
  const timeZone = query.data?.timeZone;
  useEffect(() => {
    if (timeZone) setDisplayTimeZone(timeZone);
  }, [timeZone]);
  usePageTitle(t('appointments.cancellation.pageTitle'));
  if (query.isPending)
    return (
      <Stack gap="md" role="status" aria-label={t('common.loading')}>
        <Skeleton height={32} width="50%" />
        <Skeleton height={200} />
      </Stack>
    );
  if (query.isError) {
    if (query.error instanceof ApiRequestError && query.error.status === 404) return <NotFound />;
    return <ListError onRetry={() => void query.refetch()} />;
  }
  return <Appointment company={company} cancelKey={cancelKey} appointment={query.data} />;
}

function Appointment({
  company,
  cancelKey,
  appointment: a,
}: {
  company: string;
  cancelKey: string;
  appointment: AppointmentSummary;
}) {
  const { t } = useTranslation();
  const whenText = useWhenText();
  const cancel = useCancelAppointment(company, cancelKey);
  const [isAsking, setIsAsking] = useState(false);
  const [isJustCancelled, setIsJustCancelled] = useState(false);
  const resultRef = useRef<HTMLDivElement>(null);
  const questionRef = useRef<HTMLParagraphElement>(null);
  const isCancelled = a.status === 'cancelled';
  // Read once: the page does not turn an upcoming appointment into a past one while it is open.
  const [openedAt] = useState(() => Date.now());
  const isPast = !isCancelled && new Date(a.end).getTime() < openedAt;

  useEffect(() => {
    if (isJustCancelled) resultRef.current?.focus();
  }, [isJustCancelled]);
  useEffect(() => {
    if (isAsking) questionRef.current?.focus();
  }, [isAsking]);

  const doCancel = async () => {
    try {
      await cancel.mutateAsync();
      setIsAsking(false);
      setIsJustCancelled(true);
    } catch {
      // The error shows below the question; the button stays for another try.
    }
  };

  return (
    <Stack gap="lg">
      <div>
        <Text c="dimmed" size="sm">
          {t('appointments.cancellation.pageTitle')}
        </Text>
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {a.title}
        </Title>
      </div>
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
        <Stack gap="md">
          <SummaryList
            keepLineBreaks
            rows={[
              { label: t('appointments.when'), value: whenText(a.start, a.end) },
              { label: t('appointments.timeZone'), value: a.timeZone },
              { label: t('appointments.with'), value: a.agentName },
              { label: t('appointments.name'), value: `${a.firstName} ${a.lastName}` },
              ...(a.companyName ? [{ label: t('appointments.companyName'), value: a.companyName }] : []),
              {
                label: t('appointments.cancellation.status'),
                value: (
                  <Badge color={isCancelled ? 'red.9' : 'teal.9'} variant="outline">
                    {isCancelled
                      ? t('appointments.cancellation.cancelledStatus')
                      : t('appointments.cancellation.booked')}
                  </Badge>
                ),
              },
            ]}
          />

          {isJustCancelled && (
            <Alert
              ref={resultRef}
              tabIndex={-1}
              color="green"
              variant="light"
              role="status"
              title={t('appointments.cancellation.cancelled')}
              // Mantine's green title is under 4.5:1 on its light background: the title keeps the text colour.
              styles={{ title: { color: 'var(--mantine-color-text)' } }}
              icon={<IconCalendarX aria-hidden />}
            >
              {t('appointments.cancellation.cancelledText')}
            </Alert>
          )}
          {isCancelled && !isJustCancelled && (
            <Alert color="gray" variant="light" role="status">
              {t('appointments.cancellation.alreadyCancelled', { date: formatDateTime(a.cancelledAt) })}
            </Alert>
          )}
          {isPast && <Text>{t('appointments.cancellation.isPast')}</Text>}

          {!isCancelled && !isPast && !isAsking && (
            <Group>
              <Button color="red.9" onClick={() => setIsAsking(true)}>
                {t('appointments.cancellation.cancelButton')}
              </Button>
            </Group>
          )}
          {!isCancelled && isAsking && (
            <Stack
              gap="sm"
              p="md"
              style={{ border: '1px solid var(--mantine-color-red-3)', borderRadius: 8 }}
            >
              <Text ref={questionRef} tabIndex={-1} fw={600} style={{ outline: 'none' }}>
                {t('appointments.cancellation.confirmQuestion')}
              </Text>
              {cancel.isError && (
                <Alert color="red" variant="light" role="alert">
                  {t('appointments.cancellation.cancelError')}
                </Alert>
              )}
              <Group>
                <Button color="red.9" onClick={() => void doCancel()} loading={cancel.isPending}>
                  {t('appointments.cancellation.confirmYes')}
                </Button>
                <Button variant="default" onClick={() => setIsAsking(false)} disabled={cancel.isPending}>
                  {t('appointments.cancellation.keep')}
                </Button>
              </Group>
            </Stack>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
