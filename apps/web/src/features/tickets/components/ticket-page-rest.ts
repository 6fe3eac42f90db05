/**
 * What a ticket's conversation does not wait for (ticket-detail-page.tsx): the followers, the rating,
 * the reopening, the reply box and the close dialog, with the code they bring (the followers' picker,
 * the upload's drop zone, the editor's face, Mantine's Modal, Rating and Textarea, the toasts). One chunk,
 * asked for once the conversation shows on a first load (`loadTicketPageRest`): announced with the page,
 * it shared a slow phone's link and main thread with the conversation's own code.
 */
export { CloseTicketDialog } from './close-ticket-dialog';
export { FollowersBox } from './followers-box';
export { RatingBox } from './rating-box';
export { ReopenNotice } from './reopen-notice';
export { ReplyBox } from './reply-box';
