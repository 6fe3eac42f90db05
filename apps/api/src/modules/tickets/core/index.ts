/**
 * The tickets core: the ticket rules other modules build on (the staff desk, the integration API, the
 * e-mail channel, the search, the customer notifications): who sees which ticket, the conversation
 * writer, the change log's actor, the e-mails a ticket's change sends to its customers and its staff.
 * Other modules import this index only; the core imports no module but its own.
 */
export { agentAnswerEmail, htmlToText, queueAgentAnswerEmails, safeColor } from './agent-answer';
export { insertAttachments, isBlankHtml, stripNul, userHtml } from './conversation';
export {
  markActor,
  notificationEmail,
  notificationMailChannel,
  renderNotificationMail,
  type NotificationMail,
} from './notifications';
export {
  handlesOf,
  mentionedHandles,
  noticeAssignment,
  noticeMentions,
  writeStaffNotifications,
  type StaffBellKind,
  type StaffBellNotice,
} from './staff-bell';
export { queueLowRatingNotices, queueStaffNotices, staffToHear, type StaffNotice } from './staff-notify';
export { staffTicketUrl } from './staff-url';
export { changeActorSetting, setChangeActor, timelineJson, type ChangeActor } from './ticket-changes';
export {
  companyScopeWhere,
  contactScopeWhere,
  ticketScope,
  ticketScopeWhere,
  type TicketScope,
} from './visibility';
export {
  commentChannels,
  refuseMergedTicket,
  reopenTicketIfClosed,
  writeComment,
  writeCommentIn,
  type CommentAuthor,
  type CommentChannel,
  type CommentInput,
  type WrittenComment,
} from './write-comment';
export { completeDeskTicketIn, emailTicketDefaults, openTicketIn, type OpenTicketInput } from './open-ticket';
export { queueTicketReceivedEmail } from './ticket-received-mail';
export { refreshSlaClock, SLA_QUIET, type SlaTarget } from './sla-clock';
export { sweepSlaTicket, type SweptTicket } from './sla-sweep';
export { ensureStaffAgent, lockTicket, markStaffRead, type LockedTicket } from './write-comment.queries';
