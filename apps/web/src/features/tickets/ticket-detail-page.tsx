import { lazy, Suspense, useEffect, useMemo, type ReactNode } from 'react';
import { useMediaQuery } from '@mantine/hooks';
import { Alert, Anchor, Group, Skeleton, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import type { TicketComment, TicketDetail, TicketTimelineEntry } from '@sportello/contracts';
import { ApiRequestError } from '../../lib/api-client';
import { contentShown } from '../../lib/first-content';
import { useTenant, type Tenant } from '../../lib/tenant';
import { useTimeSliced } from '../../lib/time-sliced';
import { ListError } from '../../ui/list-states';
import { useTicket } from './api/ticket-detail';
import { useMarkRead } from './api/following';
import { DetailsFold } from './components/details-fold';
import { MergedBanner } from './components/merged-banner';
import { CloseTicketButton } from './components/close-ticket-button';
import { ConversationMessage, type MessageAuthor } from '../../ui/conversation-message';
import { TicketNumber } from './components/ticket-number';
import { TicketSidePanel } from './components/ticket-side-panel';
import { TimelineEntry } from './components/timeline-entry';
import { TypeBadge } from '../../ui/type-badge';
import { isClosedTicket } from './ticket-filters';
import { usePageTitle } from '../../ui/page-title';
import { useProgressiveCount } from '../../ui/progressive-count';
import classes from './components/tickets.module.css';
import { loadTicketPageRest } from './components/ticket-page-rest-load';

/**
 * The parts after the conversation (components/ticket-page-rest.ts): on a first load their code is asked
 * for once the conversation shows, and each draws where it stands when it comes (below the conversation,
 * or in the details beside it), moving nothing above it.
 */
const FollowersBox = lazy(() => loadTicketPageRest().then((m) => ({ default: m.FollowersBox })));
const RatingBox = lazy(() => loadTicketPageRest().then((m) => ({ default: m.RatingBox })));
const ReopenNotice = lazy(() => loadTicketPageRest().then((m) => ({ default: m.ReopenNotice })));
const ReplyBox = lazy(() => loadTicketPageRest().then((m) => ({ default: m.ReplyBox })));
const Later = ({ children }: { children: ReactNode }) => <Suspense fallback={null}>{children}</Suspense>;

type T = (key: string, options?: Record<string, string>) => string;

/** Where the details stop fitting beside the conversation (tickets.module.css, `.detail`). */
export const NARROW_DETAIL_QUERY = '(max-width: 62em)';

/** The author of a comment: the current user ('you'), another portal user, or an agent. */
export function commentAuthor(comment: TicketComment, currentUserId: number, t: T): MessageAuthor {
  if (comment.senderUser) {
    return {
      name: comment.senderUser.displayName || t('tickets.detail.agent'),
      isSelf: false,
      isAgent: true,
      imageUrl: comment.senderUser.hasProfileImage ? comment.senderUser.profileImage : null,
    };
  }
  const sender = comment.senderContactWebUser;
  const isSelf = sender?.webUser?.id === currentUserId;
  return {
    name: isSelf
      ? t('tickets.detail.you')
      : sender?.referentName || sender?.webUser?.userName || t('tickets.detail.agent'),
    isSelf,
    isAgent: false,
    // One's own avatar shows one's initial, not the Y of "You" (or the T of "Tu").
    ...(isSelf && { initialOf: sender?.referentName || sender?.webUser?.userName }),
  };
}

/**
 * The author of the original description: 'you' for one's own ticket. An administrator may open a
 * colleague's ticket (SPEC B1), which then reads as from its creator, or from an agent. A ticket an
 * agent opened for its creator (a customer who phoned) names that agent too.
 */
export function descriptionAuthor(
  ticket: TicketDetail,
  tenant: Pick<Tenant, 'contactId'>,
  t: T,
): MessageAuthor {
  const creator = ticket.creatorContactWebUser;
  if (!creator) return { name: t('tickets.detail.agent'), isSelf: false, isAgent: true };
  const agent = ticket.openedBy;
  if (creator.contactId === tenant.contactId)
    return {
      name: agent ? t('tickets.detail.openedForYou', { agent }) : t('tickets.detail.you'),
      isSelf: true,
      isAgent: false,
      initialOf: creator.referentName || creator.companyName,
    };
  const name = creator.referentName || creator.companyName;
  return {
    name: agent ? t('tickets.detail.openedFor', { agent, contact: name }) : name,
    isSelf: false,
    isAgent: false,
  };
}

type ConversationItem =
  | { kind: 'comment'; at: string; comment: TicketComment }
  | { kind: 'change'; at: string; entry: TicketTimelineEntry };

/**
 * The comments and the public changes of the ticket (its timeline) in one list, oldest first; a change
 * and a comment at the same instant keep the change first (a reply that reopens comes after the reopening).
 */
export function conversation(ticket: Pick<TicketDetail, 'comments' | 'timeline'>): ConversationItem[] {
  const items: ConversationItem[] = [
    ...(ticket.timeline ?? []).map((entry) => ({ kind: 'change' as const, at: entry.at, entry })),
    ...ticket.comments.map((comment) => ({ kind: 'comment' as const, at: comment.creationDate, comment })),
  ];
  // A stable sort: equal instants keep the order above.
  return items.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

/**
 * Messages of the first paint after the description (a phone's screen shows fewer): a long conversation
 * draws the rest a batch per frame after it, and the reply box once all are there, so it never moves.
 */
export const FIRST_MESSAGES = 3;

/** A ticket: header, the description and the comments, the reply box, and the side panel. */
export default function TicketDetailPage() {
  const { t } = useTranslation();
  const tenant = useTenant();
  const { company, contactId, contact, basePath, user } = tenant;
  const params = useParams();
  const ticketId = Number(params.ticketid);
  // Read at once (not after a first render as a wide screen): a phone would draw the details, then fold them.
  const isNarrow = useMediaQuery(NARROW_DETAIL_QUERY, undefined, { getInitialValueInEffect: false });
  const query = useTimeSliced(useTicket(company, contactId, ticketId));
  // Back to the list it was opened from (a colleague's ticket from All tickets), else to the contact's own.
  const cameFrom = (useLocation().state as { from?: unknown } | null)?.from;
  const toAll = cameFrom === 'alltickets' || !contact.manageTickets;
  const back = (
    <Anchor component={Link} to={`${basePath}/${toAll ? 'alltickets' : 'tickets'}`} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        {toAll ? t('tickets.detail.backToAll') : t('tickets.detail.back')}
      </Group>
    </Anchor>
  );
  const isNotFound =
    !Number.isSafeInteger(ticketId) || (query.error instanceof ApiRequestError && query.error.status === 404);
  usePageTitle(isNotFound ? t('tickets.detail.notFound') : (query.data?.title ?? null));
  // The conversation (or the page's error) is the main content: what waited for it may load, the
  // reply's editor among it (a ticket opened from a link, app/early-data.ts).
  const isSettled = isNotFound || !query.isPending;
  const items = useMemo(() => (query.data ? conversation(query.data) : []), [query.data]);
  const shown = useProgressiveCount(items.length, FIRST_MESSAGES);
  const isWhole = shown >= items.length;
  useEffect(() => {
    if (isSettled) contentShown();
  }, [isSettled]);

  // Seen is read: each time the conversation grows while the page shows it, the unread marker goes.
  const markRead = useMarkRead(company, contactId);
  const seen = query.data ? `${query.data.id}:${query.data.comments.length}` : null;
  useEffect(() => {
    if (seen !== null) markRead.mutate(Number(seen.split(':')[0]));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per new state of the conversation
  }, [seen]);

  if (isNotFound) {
    return (
      <Stack gap="md">
        {back}
        <Title order={1}>{t('tickets.detail.notFound')}</Title>
        <Alert color="gray" variant="light">
          {t('tickets.detail.notFoundText')}
        </Alert>
      </Stack>
    );
  }
  if (query.isError) {
    return (
      <Stack gap="md">
        {back}
        <ListError onRetry={() => void query.refetch()} />
      </Stack>
    );
  }
  if (query.isPending) {
    // The page's outline (header row, then status box and conversation), at least a screen tall so the
    // footer stays below it. Its own key: the ticket replaces the outline instead of React moving the
    // outline's elements to the ticket's places (which the browser counts as the layout shifting).
    return (
      <Stack
        key="loading"
        gap="md"
        aria-busy="true"
        role="status"
        aria-label={t('common.loading')}
        className={classes.detailLoading}
      >
        {back}
        <Skeleton height={36} width="60%" />
        <div className={classes.detail}>
          <Skeleton height={200} className={classes.detailSide} />
          <Stack gap="md" className={classes.detailMain}>
            <Skeleton height={26} width={160} />
            <Skeleton height={120} />
            <Skeleton height={120} />
          </Stack>
        </div>
      </Stack>
    );
  }

  const ticket = query.data;
  const isClosed = ticket.isClosed || isClosedTicket(ticket);
  // A merged ticket is read only: its conversation, followers and rating live in the one it went into.
  const canChange = contact.manageTickets && !ticket.mergedInto;
  const details = (
    <>
      <TicketSidePanel ticket={ticket} canViewReports={contact.viewContactActivityReports} />
      <Later>
        <FollowersBox company={company} contactId={contactId} ticketId={ticket.id} canEdit={canChange} />
      </Later>
    </>
  );
  return (
    <Stack key="ticket" gap="md">
      {back}
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <Group gap="sm" align="center" wrap="wrap" style={{ minWidth: 0 }}>
          <TicketNumber ticket={ticket} />
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {ticket.title}
          </Title>
          <TypeBadge type={ticket.taskType} />
        </Group>
        {!isClosed && canChange && (
          <CloseTicketButton company={company} contactId={contactId} ticketId={ticket.id} />
        )}
      </Group>
      {ticket.mergedInto && <MergedBanner mergedInto={ticket.mergedInto} basePath={basePath} />}
      {/* The status box first: beside the conversation on a wide screen; on a phone one folded line. */}
      <div className={classes.detail}>
        {isNarrow ? (
          <DetailsFold ticket={ticket}>{details}</DetailsFold>
        ) : (
          <Stack gap="md" className={classes.detailSide}>
            {details}
          </Stack>
        )}
        <Stack gap="md" className={classes.detailMain}>
          <Title order={2} size="h4">
            {t('tickets.detail.conversation')}
          </Title>
          <Stack gap="sm" data-testid="conversation">
            <ConversationMessage
              author={descriptionAuthor(ticket, tenant, t)}
              date={ticket.createdOn}
              html={ticket.description}
              attachments={ticket.attachments}
              testId="ticket-description"
            />
            {items
              .slice(0, shown)
              .map((item) =>
                item.kind === 'comment' ? (
                  <ConversationMessage
                    key={`c${item.comment.id}`}
                    author={commentAuthor(item.comment, user.id, t)}
                    date={item.comment.creationDate}
                    html={item.comment.message}
                    attachments={item.comment.attachments}
                    viaEmail={
                      item.comment.channel === 'email' ? { label: t('tickets.detail.viaEmail') } : undefined
                    }
                    testId="ticket-comment"
                  />
                ) : (
                  <TimelineEntry key={`s${item.entry.id}`} entry={item.entry} />
                ),
              )}
          </Stack>
          {/* A merged ticket is rated where it went: its own box only says a rating given before. */}
          <Later>
            {isWhole && isClosed && (ticket.rating || !ticket.mergedInto) && (
              <RatingBox
                key={`${ticket.id}:${ticket.rating?.ratedAt ?? ''}`}
                company={company}
                contactId={contactId}
                ticketId={ticket.id}
                rating={ticket.rating}
                canRate={canChange}
              />
            )}
            {isWhole && isClosed && !ticket.mergedInto && (
              <ReopenNotice
                company={company}
                contactId={contactId}
                ticketId={ticket.id}
                canReopen={contact.manageTickets}
              />
            )}
            {/* A merged ticket's conversation goes on in the one it was merged into (the banner's link). */}
            {isWhole && !ticket.mergedInto && (
              <ReplyBox
                key={ticket.id}
                company={company}
                contactId={contactId}
                ticketId={ticket.id}
                isPlain={contact.portalSettings.disableHtmlEditor}
                isClosed={isClosed}
              />
            )}
          </Later>
        </Stack>
      </div>
    </Stack>
  );
}
