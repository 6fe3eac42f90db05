import { Anchor, Badge, Paper, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TicketDetail } from '@sportello/contracts';
import { formatDate } from '../../../lib/format';
import { isClosedTicket } from '../ticket-filters';
import { localName } from '../../../lib/local-name';

function Field({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <Stack gap={2} data-testid={testId}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" component="dt">
        {label}
      </Text>
      <Text size="sm" component="dd" m={0}>
        {children}
      </Text>
    </Stack>
  );
}

/** Managing group, assignee, status step and the activity report of a ticket. */
export function TicketSidePanel({
  ticket,
  canViewReports,
}: {
  ticket: TicketDetail;
  canViewReports: boolean;
}) {
  const { t } = useTranslation();
  const report = ticket.activityReport;
  return (
    <Paper component="aside" withBorder p="md" aria-labelledby="ticket-details-title">
      <Title order={2} size="h4" id="ticket-details-title" mb="sm">
        {t('tickets.detail.details')}
      </Title>
      <Stack gap="sm" component="dl" m={0}>
        <Field label={t('tickets.detail.managingGroup')} testId="side-group">
          {ticket.assignedGroup?.name ?? '—'}
        </Field>
        <Field label={t('tickets.detail.assignee')} testId="side-assignee">
          {ticket.assignedUser
            ? `${ticket.assignedUser.firstName} ${ticket.assignedUser.lastName}`.trim()
            : t('tickets.detail.notAssigned')}
        </Field>
        <Field label={t('tickets.step')} testId="side-step">
          <Badge
            variant="light"
            color={isClosedTicket(ticket) ? 'gray' : 'brand'}
            radius="sm"
            tt="none"
            component="span"
          >
            {localName(ticket.taskStatus.step)}
          </Badge>
        </Field>
        <Field label={t('following.nextActivity')} testId="side-next-activity">
          {ticket.nextPlannedActivityInfo || t('following.nextActivityNone')}
        </Field>
        {canViewReports && (
          <Field label={t('tickets.activityReport')} testId="side-report">
            {report ? (
              <>
                {report.name}
                <br />
                {formatDate(report.dateTime)}{' '}
                <Anchor
                  href={report.documentUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={t('tickets.openReport', { name: report.name })}
                >
                  {t('tickets.detail.openLink')}{' '}
                  <IconExternalLink size={14} aria-hidden style={{ verticalAlign: 'middle' }} />
                </Anchor>
              </>
            ) : (
              t('tickets.detail.noReport')
            )}
          </Field>
        )}
      </Stack>
    </Paper>
  );
}
