import { contactApi } from './keys';

/** Where new-ticket attachments are uploaded (multipart field `file`) → `{id, url}`. */
export const ticketAttachmentUrl = (company: string, contactId: number) =>
  `${contactApi(company, contactId)}/documents/upload`;
