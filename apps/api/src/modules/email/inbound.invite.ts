/**
 * "Invite as contact" from Unknown senders (docs/email.md): the sender of a waiting message becomes a
 * new contact of a company the agent picks, is sent the portal's invitation, and the message becomes
 * their new ticket, all in one transaction. The contact and the invitation are the entity service's
 * (`PeopleWriters`: the same rows, audit, events and invitation e-mail as the desk's Companies pages);
 * the message is attached as `attach` does it.
 */
import {
  emailErrorCodes,
  type ContactCreate,
  type ContactEntity,
  type InboundInviteAnswer,
  type InboundInviteBody,
  type UserEntity,
  type UserInvite,
} from '@sportello/contracts';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { AppContext } from '../../platform/context';
import { conflict, notFound } from '../../platform/errors';
import { kickOutbox } from '../../platform/outbox';
import { queryRows } from '../../platform/sql-json';
import { senderOf } from './inbound.classify';
import { attachIn, inboundEntry, lockWaiting, readWaiting } from './inbound.service';

/** The agent, as the entity service records a change (its `Actor` of a staff route). */
export interface InvitingAgent {
  type: 'staff';
  staffUserId: number;
  name: string;
  portalId: number;
  portalKey: string;
  timeZone: string;
}

/**
 * The entity service's writers "Invite as contact" reuses (modules/admin/entities, `createContactIn` and
 * `inviteUserIn`), handed over by routes.ts: a module reaches another's code only through a core.
 */
export interface PeopleWriters {
  createContactIn(ctx: AppContext, tx: Tx, actor: InvitingAgent, body: ContactCreate): Promise<ContactEntity>;
  inviteUserIn(ctx: AppContext, tx: Tx, actor: InvitingAgent, body: UserInvite): Promise<UserEntity>;
}

export async function inviteInbound(
  ctx: AppContext,
  people: PeopleWriters,
  actor: InvitingAgent,
  id: number,
  body: InboundInviteBody,
): Promise<InboundInviteAnswer> {
  const { portalId } = actor;
  const { mail, fileId } = await readWaiting(ctx, portalId, id);
  const address = senderOf(mail)?.address;
  if (!address) throw conflict('The message names no sender address', emailErrorCodes.inboundRefused);
  const userName = body.userName ?? address;
  const now = ctx.clock.now();
  const made = await ctx.database.db.transaction(async (tx) => {
    await lockWaiting(tx, portalId, id);
    const [company] = await queryRows<{ id: number }>(
      tx,
      sql`select id from companies where portal_id = ${portalId}::int and ext_id = ${body.companyId}::bigint`,
    );
    if (!company) throw notFound('No company with this id in the portal', emailErrorCodes.companyNotFound);
    // The address is that company's already (a contact's own, or the user's holding one): attach instead.
    const [known] = await queryRows<{ ext_id: number }>(
      tx,
      sql`select c.ext_id from contacts c where c.company_id = ${company.id}::int and lower(c.email) = ${address}
        union all
        select c.ext_id from users u join user_contacts uc on uc.user_id = u.id
          join contacts c on c.id = uc.contact_id and c.company_id = ${company.id}::int
        where lower(u.email) = ${address}
        limit 1`,
    );
    if (known)
      throw conflict(
        `${address} is contact ${known.ext_id} of this company already: attach the message to it`,
        emailErrorCodes.contactExists,
      );
    const contact = await people.createContactIn(ctx, tx, actor, {
      companyId: body.companyId,
      referentName: body.referentName,
      email: address,
      // The ticket right, so they follow on the portal the ticket their message opens; an admin of the
      // portal grants more on the contact's page.
      permissions: { manageTickets: true },
    });
    const user = await people.inviteUserIn(ctx, tx, actor, {
      userName,
      email: address,
      contactIds: [contact.contactId],
    });
    const [row] = await queryRows<{ id: number; company_id: number }>(
      tx,
      sql`select id, company_id from contacts where portal_id = ${portalId}::int and ext_id = ${contact.contactId}::bigint`,
    );
    await attachIn(tx, ctx, {
      portalId,
      staffUserId: actor.staffUserId,
      id,
      mail,
      fileId,
      contact: { id: Number(row!.id), extId: contact.contactId, companyId: Number(row!.company_id) },
      now,
    });
    return { contactId: contact.contactId, userName: user.userName };
  });
  kickOutbox();
  return { entry: await inboundEntry(ctx, id), ...made };
}
