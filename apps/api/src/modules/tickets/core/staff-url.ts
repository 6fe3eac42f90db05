import type { AppContext } from '../../../platform/context';

/** The desk's address of a ticket (the web desk's route). */
export const staffTicketUrl = (ctx: Pick<AppContext, 'config'>, portalKey: string, ticketExtId: number) =>
  `${ctx.config.publicUrl}/${encodeURIComponent(portalKey)}/staff/tickets/${ticketExtId}`;
