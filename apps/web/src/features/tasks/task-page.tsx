import { useEffect } from 'react';
import { Badge, Box, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconFileOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { TaskPage as TaskPageData } from '@sportello/contracts';
import { ApiRequestError } from '../../lib/api-client';
import { formatDate, formatDateTime, ticketNumberText } from '../../lib/format';
import { setDisplayTimeZone } from '../../lib/time-zone';
import { ListError } from '../../ui/list-states';
import { PublicFrame, PublicNotFound, usePublicPortal } from '../../ui/public-frame';
import { SafeHtml } from '../../ui/safe-html';
import { useTaskPage } from './api/task-page';
import { SummaryList } from '../../ui/summary-list';
import classes from './task-page.module.css';
import { usePageTitle } from '../../ui/page-title';

/**
 * `/tasks/{company}/{eventkey}` (SPEC A2, B3), open without sign-in: a read-only summary of one ticket
 * reached by its unguessable key. An unknown key shows a not-found page.
 */
export default function TaskPage() {
  const { company = '', eventkey = '' } = useParams();
  const portal = usePublicPortal(company);
  return (
    <PublicFrame portal={portal} maxWidth={880}>
      {company && eventkey ? <TaskContent company={company} eventKey={eventkey} /> : <TaskNotFound />}
    </PublicFrame>
  );
}

function TaskNotFound() {
  const { t } = useTranslation();
  return (
    <PublicNotFound
      title={t('tasks.notFoundTitle')}
      text={t('tasks.notFoundText')}
      icon={<IconFileOff size={48} aria-hidden stroke={1.5} />}
    />
  );
}

function TaskContent({ company, eventKey }: { company: string; eventKey: string }) {
  const { t } = useTranslation();
  const query = useTaskPage(company, eventKey);
  const timeZone = query.data?.timeZone;
  useEffect(() => {
    if (timeZone) setDisplayTimeZone(timeZone);
  }, [timeZone]);
  usePageTitle(query.data ? `${query.data.title} · ${t('tasks.pageTitle')}` : t('tasks.pageTitle'));
  if (query.isPending)
    return (
      <Stack gap="md" role="status" aria-label={t('common.loading')}>
        <Skeleton height={32} width="60%" />
        <Skeleton height={160} />
        <Skeleton height={120} />
      </Stack>
    );
  if (query.isError) {
    if (query.error instanceof ApiRequestError && query.error.status === 404) return <TaskNotFound />;
    return <ListError onRetry={() => void query.refetch()} />;
  }
  return <Task task={query.data} />;
}

function Task({ task }: { task: TaskPageData }) {
  const { t } = useTranslation();
  const number = ticketNumberText(task);
  const details: { label: string; value: string }[] = [
    { label: t('tasks.createdOn'), value: formatDate(task.createdOn) },
    { label: t('tasks.assignee'), value: task.assignee ?? t('tasks.none') },
    { label: t('tasks.group'), value: task.group ?? t('tasks.none') },
    { label: t('tasks.nextActivity'), value: task.nextPlannedActivityInfo || t('tasks.none') },
  ];
  return (
    <Stack gap="lg">
      <div>
        {number && (
          <Text c="dimmed" size="sm">
            {t('tasks.number', { number })}
          </Text>
        )}
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {task.title}
        </Title>
        <Group gap="xs" mt="xs">
          <Badge
            color={task.type.color ?? 'gray'}
            variant="filled"
            aria-label={`${t('tasks.type')}: ${task.type.name}`}
          >
            {task.type.name}
          </Badge>
          <Badge
            color={task.status.isClosed ? 'gray.7' : 'blue.9'}
            variant="outline"
            aria-label={`${t('tasks.status')}: ${task.status.name}`}
          >
            {task.status.name}
          </Badge>
        </Group>
      </div>

      <Paper
        withBorder
        p={{ base: 'sm', sm: 'lg' }}
        radius="md"
        component="section"
        aria-labelledby="task-details"
      >
        <Title order={2} size="h4" id="task-details" mb="sm">
          {t('tasks.details')}
        </Title>
        <SummaryList rows={details} labelWidth="35%" />
      </Paper>

      <Box component="section" aria-labelledby="task-comments">
        <Title order={2} size="h4" id="task-comments" mb="sm">
          {t('tasks.comments')}
        </Title>
        {task.comments.length === 0 ? (
          <Text c="dimmed">{t('tasks.noComments')}</Text>
        ) : (
          <Stack gap="sm" component="ol" className={classes.comments}>
            {task.comments.map((c, i) => (
              <Paper key={i} component="li" withBorder p="md" radius="md">
                <Group gap="xs" mb={6} wrap="wrap">
                  <Text fw={600} size="sm">
                    {c.author}
                  </Text>
                  <Badge size="xs" variant="outline" color={c.authorKind === 'agent' ? 'blue.9' : 'gray.7'}>
                    {c.authorKind === 'agent' ? t('tasks.staff') : t('tasks.customer')}
                  </Badge>
                  <Text size="sm" c="dimmed" component="time" dateTime={c.date}>
                    {formatDateTime(c.date)}
                  </Text>
                </Group>
                <SafeHtml html={c.message} className={classes.message} />
              </Paper>
            ))}
          </Stack>
        )}
      </Box>
      <Text size="sm" c="dimmed">
        {t('tasks.readOnly')}
      </Text>
    </Stack>
  );
}
