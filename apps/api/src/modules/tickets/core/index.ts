/**
 * The tickets core: the ticket rules other modules build on (the staff desk, the integration API, the
 * e-mail channel). Other modules import this index only; the core imports no module but its own.
 */
export { insertAttachments, isBlankHtml, stripNul, userHtml } from './conversation';
export {
  commentChannels,
  reopenTicketIfClosed,
  writeComment,
  writeCommentIn,
  type CommentAuthor,
  type CommentChannel,
  type CommentInput,
  type WrittenComment,
} from './write-comment';
export { ensureStaffAgent, lockTicket, markStaffRead, type LockedTicket } from './write-comment.queries';
