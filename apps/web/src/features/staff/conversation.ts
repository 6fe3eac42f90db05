import type { StaffComment, StaffTicketDetail, StaffTimelineEntry } from '@sportello/contracts';

/** One entry of the desk's conversation: the opening message, a comment or note, or a change. */
export type ConversationEntry =
  | { kind: 'opening'; at: string }
  | { kind: 'comment'; at: string; comment: StaffComment }
  | { kind: 'change'; at: string; change: StaffTimelineEntry };

/**
 * The conversation in time order: the ticket's description first, then comments, notes and changes
 * interleaved by time (a change and a comment of the same instant: the change first, as it was made
 * before the reply that explains it). Ties keep the server's order.
 */
export function conversationOf(
  ticket: Pick<StaffTicketDetail, 'createdOn' | 'comments' | 'timeline'>,
): ConversationEntry[] {
  const rank = (e: ConversationEntry) => (e.kind === 'opening' ? 0 : e.kind === 'change' ? 1 : 2);
  const rest: ConversationEntry[] = [
    ...ticket.timeline.map((change) => ({ kind: 'change' as const, at: change.at, change })),
    ...ticket.comments.map((comment) => ({ kind: 'comment' as const, at: comment.creationDate, comment })),
  ];
  const time = (e: ConversationEntry) => Date.parse(e.at);
  rest.sort((a, b) => time(a) - time(b) || rank(a) - rank(b));
  return [{ kind: 'opening', at: ticket.createdOn }, ...rest];
}
