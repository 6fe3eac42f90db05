import { ticketRoutes } from '@sportello/contracts/route-refs';
import { pathOf } from '../../../lib/api-client';

/** Where new-ticket attachments are uploaded (multipart field `file`) → `{id, url}`. */
export const ticketAttachmentUrl = (company: string, contactId: number) =>
  pathOf(ticketRoutes.uploadTicketAttachment, { company, contactid: contactId });
