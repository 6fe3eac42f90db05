/**
 * Who gets a ticket's e-mails (an agent's answer): the users holding the contact who opened it, and the
 * colleagues following it (issue 16), each once, when they want agent answers by e-mail and have an
 * address. Shared by every writer of agent answers (the integration API, the staff desk), so it lives
 * here. Each recipient comes with the contact they hold in the ticket's company: their link opens the
 * ticket under that contact.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { queryRows } from './sql-json';

export interface TicketRecipient {
  email: string;
  language: string | null;
  /** The back office's id of the recipient's contact in the ticket's company. */
  contactExtId: number;
}

export async function ticketAnswerRecipients(tx: Tx, ticketId: number): Promise<TicketRecipient[]> {
  const rows = await queryRows<{ email: string; language: string | null; contact_ext_id: number }>(
    tx,
    sql`select x.email, x.language, x.contact_ext_id from (
        select distinct on (u.id) u.id, u.email, u.language, c.ext_id as contact_ext_id
        from tickets t
        join lateral (
          select uc.user_id, uc.contact_id, 0 as rank from user_contacts uc
          where uc.contact_id = t.creator_contact_id
          union all
          select f.user_id, fc.id, 1 from ticket_followers f
          join user_contacts fuc on fuc.user_id = f.user_id
          join contacts fc on fc.id = fuc.contact_id and fc.company_id = t.company_id
          where f.ticket_id = t.id
        ) r on true
        join users u on u.id = r.user_id
        join contacts c on c.id = r.contact_id
        where t.id = ${ticketId}::int and u.notify_agent_comments and u.email is not null and u.email <> ''
        order by u.id, r.rank, c.ext_id
      ) x order by x.id`,
  );
  return rows.map((r) => ({
    email: r.email,
    language: r.language,
    contactExtId: Number(r.contact_ext_id),
  }));
}
