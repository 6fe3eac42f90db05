import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Anchor, Badge, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconEye, IconPencil } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Presence, StaffTicketDetail } from '@sportello/contracts';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ApiRequestError } from '../../lib/api-client';
import { contentShown, useAfterContent } from '../../lib/first-content';
import { formatDateTime } from '../../lib/format';
import { useTimeSliced } from '../../lib/time-sliced';
import { ConversationMessage } from '../../ui/conversation-message';
import { ListError } from '../../ui/list-states';
import { usePageTitle } from '../../ui/page-title';
import { useProgressiveCount } from '../../ui/progressive-count';
import { TypeBadge } from '../../ui/type-badge';
import { staffKeys } from './api/keys';
import { mergeStateQuery } from './api/merge';
import { usePresence } from './api/presence';
import { staffTicketQuery } from './api/ticket';
import type { ComposeMode } from './components/composer';
import { SenderUnverifiedBadge } from './components/sender-unverified-badge';
import { SlaBadge } from './components/sla-badge';
import { badgeVars } from './components/badge-vars';
import { MergePanel } from './components/merge-panel';
// After the conversation, chunks of their own.
import {
  Composer,
  CustomerPanel,
  TaskLinksPanel,
  TicketSidePanel,
  TimePanel,
} from './components/ticket-after-content';
import { TimelineLine } from './components/timeline-line';
import { conversationOf, type ConversationEntry } from './conversation';
import { useDesk } from './desk-context';
import { useDeskKeys } from './desk-keys';
import { useStaffT } from './i18n';
import { staffPath } from './staff-paths';
import classes from './components/ticket.module.css';

/**
 * Entries of the first paint (the opening message and three more): a long conversation draws the rest a
 * batch per frame after it, and the composer once all are there, so it never moves.
 */
const FIRST_ENTRIES = 4;

/**
 * A ticket on the desk: the conversation as the customer sees it plus the internal notes (marked in
 * words and colour) and the timeline of changes; the reply/note composer; the side panel that changes
 * step, assignee, group, type and next activity; its task page links; who else has it open. Opening it
 * marks it read.
 */
export default function StaffTicketPage() {
  const { t } = useStaffT();
  const { company } = useDesk();
  const params = useParams();
  const ticketId = Number(params.ticketid);
  const isValidId = Number.isSafeInteger(ticketId) && ticketId > 0;
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = location.state as { inbox?: unknown; compose?: unknown; created?: unknown } | null;
  const inboxSearch = typeof state?.inbox === 'string' ? state.inbox : '';
  const inboxLink = staffPath(company) + inboxSearch;
  // Drawn in a time-sliced render (lib/time-sliced), with whether it is merged: that line comes above
  // the conversation, so the two show together and nothing moves when the second answer comes.
  const query = useTimeSliced(useQuery({ ...staffTicketQuery(company, ticketId), enabled: isValidId }));
  const merge = useTimeSliced(useQuery({ ...mergeStateQuery(company, ticketId), enabled: isValidId }));
  const [mode, setMode] = useState<ComposeMode>(state?.compose === 'note' ? 'note' : 'reply');
  const [isWriting, setIsWriting] = useState(false);
  const [focusRequest, setFocusRequest] = useState(
    state?.compose === 'reply' || state?.compose === 'note' ? 1 : 0,
  );
  const others = usePresence(company, ticketId, isWriting ? 'replying' : 'viewing', query.data?.presence);
  const assigneeRef = useRef<HTMLInputElement>(null);

  const isNotFound = !isValidId || (query.error instanceof ApiRequestError && query.error.status === 404);
  usePageTitle(isNotFound ? t('ticket.notFound') : (query.data?.title ?? null));
  // The conversation (or the page's error) is the main content: the side panels, the editor, the
  // header's menus and the rest wait for it on a first load (app/early-data.ts, lib/first-content).
  const isShown = query.isSuccess && !merge.isPending;
  const isSettled = isNotFound || query.isError || isShown;
  useEffect(() => {
    if (isSettled) contentShown();
  }, [isSettled]);
  const isAfterContent = useAfterContent();
  const entries = useMemo(() => (query.data ? conversationOf(query.data) : []), [query.data]);
  const shown = useProgressiveCount(entries.length, FIRST_ENTRIES);
  const isWhole = shown >= entries.length;

  // Opening the ticket marked it read on the server: the inbox and its unread counts follow.
  const isLoaded = query.isSuccess;
  useEffect(() => {
    if (!isLoaded) return;
    void queryClient.invalidateQueries({ queryKey: staffKeys.inboxes(company) });
    void queryClient.invalidateQueries({ queryKey: staffKeys.unread(company) });
  }, [isLoaded, company, ticketId, queryClient]);

  const compose = (next: ComposeMode) => {
    setMode(next);
    setFocusRequest((n) => n + 1);
  };
  useDeskKeys({
    r: () => compose('reply'),
    n: () => compose('note'),
    a: () => assigneeRef.current?.focus(),
    u: () => void navigate(inboxLink),
  });

  const back = (
    <Anchor component={Link} to={inboxLink} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        {t('ticket.back')}
      </Group>
    </Anchor>
  );

  if (isNotFound)
    return (
      <Stack>
        {back}
        <Title order={1} size="h3">
          {t('ticket.notFound')}
        </Title>
        <Alert color="yellow" variant="light">
          {t('ticket.notFoundText')}
        </Alert>
      </Stack>
    );
  if (query.isError)
    return (
      <Stack>
        {back}
        <ListError onRetry={() => void query.refetch()} />
      </Stack>
    );
  const ticket = isShown ? query.data : undefined;
  return (
    <Stack gap="md">
      {back}
      {!ticket ? (
        <Stack gap="sm" aria-busy="true" role="status" aria-label={t('loading')}>
          <Skeleton height={28} width="60%" />
          <Skeleton height={120} />
          <Skeleton height={120} />
        </Stack>
      ) : (
        <>
          <TicketHeading ticket={ticket} />
          {state?.created === true && (
            <Alert color="green" variant="light" role="status" data-testid="ticket-created">
              {t('newTicket.created', {
                number: ticket.ticketNumber,
                contact: ticket.contact?.referentName ?? ticket.company.name,
              })}
            </Alert>
          )}
          {ticket.rated && <RatingCard rated={ticket.rated} />}
          <MergePanel company={company} ticket={ticket} />
          <PresenceBar others={others} />
          <div className={classes.layout}>
            <Stack gap="sm" className={classes.conversation}>
              <Title order={2} size="h4">
                {t('ticket.conversation')}
              </Title>
              <Conversation ticket={ticket} entries={entries.slice(0, shown)} />
              {isWhole && (
                <Composer
                  company={company}
                  ticket={ticket}
                  mode={mode}
                  onModeChange={setMode}
                  focusRequest={focusRequest}
                  onWritingChange={setIsWriting}
                />
              )}
            </Stack>
            <Stack gap="md">
              {isAfterContent && (
                <>
                  <TicketSidePanel ticket={ticket} company={company} assigneeRef={assigneeRef} />
                  <TimePanel company={company} ticketId={ticket.id} />
                  <TaskLinksPanel company={company} ticketId={ticket.id} />
                  <CustomerPanel company={company} ticketId={ticket.id} />
                </>
              )}
            </Stack>
          </div>
        </>
      )}
    </Stack>
  );
}

function TicketHeading({ ticket }: { ticket: StaffTicketDetail }) {
  const { t } = useStaffT();
  return (
    <Stack gap={4}>
      <Title order={1} size="h3" className={classes.title}>
        <Text span c="dimmed" inherit>
          {ticket.ticketNumber}
        </Text>{' '}
        {ticket.title}
      </Title>
      <Group gap="xs">
        <TypeBadge type={ticket.type} />
        <Badge
          variant="light"
          color={ticket.closed ? 'gray' : 'brand'}
          vars={badgeVars(ticket.closed ? 'gray' : 'brand')}
          radius="sm"
          tt="none"
          data-testid="ticket-step"
        >
          {ticket.step.name}
        </Badge>
        {ticket.waitingOnCustomer && !ticket.closed && (
          <Badge variant="outline" color="gray" vars={badgeVars('gray')} radius="sm" tt="none">
            {t('inbox.waitingBadge')}
          </Badge>
        )}
        <SlaBadge sla={ticket.sla} />
        <Text size="sm" c="dimmed">
          {ticket.company.name}
          {ticket.contact ? ` · ${ticket.contact.referentName}` : ''}
        </Text>
      </Group>
    </Stack>
  );
}

/** The customer's rating and comment; a low one (at or below the portal's threshold) says so. */
function RatingCard({ rated }: { rated: NonNullable<StaffTicketDetail['rated']> }) {
  const { t } = useStaffT();
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      component="section"
      aria-labelledby="staff-rating-title"
      data-testid="ticket-rating"
      data-low={rated.low || undefined}
      className={rated.low ? classes.lowRating : undefined}
    >
      <Group gap="xs" align="baseline">
        <Title order={2} size="h5" id="staff-rating-title">
          {t('rating.title')}
        </Title>
        <Text fw={700}>
          <span aria-hidden className={classes.stars}>
            {'★'.repeat(rated.rating)}
            {'☆'.repeat(5 - rated.rating)}
          </span>{' '}
          {t('rating.outOf', { rating: rated.rating })}
        </Text>
        {rated.low && (
          <Badge color="red.9" variant="filled" radius="sm" tt="none">
            {t('rating.low')}
          </Badge>
        )}
      </Group>
      {rated.comment && (
        <Text component="blockquote" size="sm" m={0} mt={6} className={classes.ratingComment}>
          {rated.comment}
        </Text>
      )}
      <Text size="xs" c="dimmed" mt={4}>
        {t('rating.by', { name: rated.by || t('rating.someone') })} ·{' '}
        <time dateTime={rated.ratedAt}>{formatDateTime(rated.ratedAt)}</time>
      </Text>
    </Paper>
  );
}

/** "Marco Ferri is replying": who else has this ticket open now (the server forgets them after a while). */
function PresenceBar({ others }: { others: Presence[] }) {
  const { t } = useStaffT();
  return (
    <div role="status" aria-live="polite" data-testid="presence">
      {others.length > 0 && (
        <Group gap="xs">
          {others.map((p) => (
            <Badge
              key={p.staffUserId}
              variant="light"
              color={p.state === 'replying' ? 'orange' : 'gray'}
              tt="none"
              radius="sm"
              leftSection={
                p.state === 'replying' ? (
                  <IconPencil size={12} aria-hidden />
                ) : (
                  <IconEye size={12} aria-hidden />
                )
              }
            >
              {t(p.state === 'replying' ? 'ticket.isReplying' : 'ticket.isViewing', { name: p.displayName })}
            </Badge>
          ))}
        </Group>
      )}
    </div>
  );
}

function Conversation({ ticket, entries }: { ticket: StaffTicketDetail; entries: ConversationEntry[] }) {
  const { t } = useStaffT();
  return (
    <Stack gap="sm" component="section" aria-label={t('ticket.conversation')} data-testid="conversation">
      {entries.map((entry) => {
        if (entry.kind === 'opening')
          return (
            <ConversationMessage
              key="opening"
              author={{
                name: ticket.openedBy
                  ? t('ticket.openedBy', {
                      agent: ticket.openedBy,
                      contact: ticket.contact?.referentName ?? ticket.company.name,
                    })
                  : (ticket.contact?.referentName ?? ticket.company.name),
                isSelf: false,
                isAgent: false,
              }}
              date={ticket.createdOn}
              html={ticket.description}
              attachments={ticket.attachments}
              testId="message"
              viaEmail={
                ticket.openingEmail
                  ? {
                      label: t('ticket.viaEmail'),
                      fullEmail: ticket.openingEmail.originalEmail
                        ? { href: ticket.openingEmail.originalEmail, label: t('ticket.fullEmail') }
                        : undefined,
                    }
                  : undefined
              }
              flag={ticket.openingEmail?.senderUnverified ? <SenderUnverifiedBadge /> : undefined}
            />
          );
        if (entry.kind === 'change') return <TimelineLine key={`t${entry.change.id}`} entry={entry.change} />;
        const c = entry.comment;
        return (
          <ConversationMessage
            key={`c${c.id}`}
            author={{ name: c.author.name, isSelf: false, isAgent: c.author.kind === 'agent' }}
            date={c.creationDate}
            html={c.message}
            attachments={c.attachments}
            testId={c.internal ? 'note' : 'message'}
            internalLabel={c.internal ? t('ticket.internalLabel') : undefined}
            viaEmail={
              c.channel === 'email'
                ? {
                    label: t('ticket.viaEmail'),
                    fullEmail: c.originalEmail
                      ? { href: c.originalEmail, label: t('ticket.fullEmail') }
                      : undefined,
                  }
                : undefined
            }
            flag={c.senderUnverified ? <SenderUnverifiedBadge /> : undefined}
          />
        );
      })}
    </Stack>
  );
}
