/**
 * The desk's access administration: the portal's staff (invite with role and groups through the one
 * invitation service of the CLI, resend, change role, remove); the API keys are the integration
 * module's (keys.routes.ts). Every change writes its audit row and emits its event in the change's transaction; the
 * portal always keeps an admin who may sign in.
 */
import {
  accessErrorCodes,
  staffErrorCodes,
  type AccessInviteAnswer,
  type AccessMade,
  type InstallationInviteAnswer,
  type AccessMember,
  type StaffRole,
} from '@sportello/contracts';
import type { Tx } from '../../db/client';
import type { Queryable } from '../../platform/sql-json';
import type { AppContext } from '../../platform/context';
import { AppError, badRequest, notFound } from '../../platform/errors';
import { groupIdsOf, replaceGroups } from './desk.queries';
import type { StaffPortalAccess } from './staff.access';
import { inviteStaff, staffDeskUrl } from './staff.service';
import { accessLostEmail } from './staff.mail';
import { enqueueEmail, kickOutbox } from '../../platform/outbox';
import { listMadeBy, retireMadeBy, type MadeBy } from '../integration/core';
import { retireStaffTokens, revokeAllStaffSessions } from './staff.queries';
import { recordAdminChange, recordStaffChange } from '../../platform/audit';
import {
  deleteMembership,
  forgetStaffAccount,
  listAccessMembers,
  lockAdmins,
  otherAdmins,
  setMemberRole,
} from './access.queries';

const memberNotFound = () =>
  notFound('No staff member of this portal with this id', staffErrorCodes.staffNotFound);
const lastAdmin = () =>
  new AppError(409, accessErrorCodes.lastAdmin, 'The portal would be left without an admin');

const actorOf = (a: StaffPortalAccess) => ({
  staffUserId: a.staffUserId,
  displayName: a.displayName,
  portalId: a.portal.portalId,
});

/** The audit row and the event of one change, in its transaction. */
const record = (ctx: AppContext, tx: Tx, a: StaffPortalAccess, c: Parameters<typeof recordStaffChange>[3]) =>
  recordStaffChange(tx, ctx, actorOf(a), c);

export function listStaff(ctx: AppContext, a: StaffPortalAccess): Promise<AccessMember[]> {
  return listAccessMembers(ctx.database.db, a.portal.portalId);
}

async function memberIn(tx: Queryable, portalId: number, staffUserId: number): Promise<AccessMember> {
  const [m] = await listAccessMembers(tx, portalId, staffUserId);
  if (!m) throw memberNotFound();
  return m;
}

/**
 * Invites by e-mail (the CLI's invitation: user, membership, agent, e-mail queued), then sets the
 * groups and records the change, all in one transaction: a bad group leaves nobody invited.
 */
export async function inviteMember(
  ctx: AppContext,
  a: StaffPortalAccess,
  body: { email: string; displayName: string; role: StaffRole; groupIds: number[] },
): Promise<AccessInviteAnswer> {
  let member: AccessMember | undefined;
  // Whether the address already signs in elsewhere is not this portal's to know: the answer is the same.
  await inviteStaff(
    ctx,
    a.portal.portalKey,
    body.email,
    body.role,
    async (tx, inv) => {
      const wanted = [...new Set(body.groupIds)];
      if (wanted.length > 0) {
        const ids = await groupIdsOf(tx, inv.portalId, wanted);
        if (ids.length !== wanted.length)
          throw badRequest("A group is not one of the portal's", staffErrorCodes.unknownReference);
        await replaceGroups(tx, inv.portalId, inv.staffUserId, ids);
      }
      member = await memberIn(tx, inv.portalId, inv.staffUserId);
      await record(ctx, tx, a, {
        entity: 'staff_member',
        entityId: inv.staffUserId,
        action: 'invited',
        before: null,
        after: member,
      });
    },
    body.displayName,
  );
  return { member: member! };
}

/**
 * The installation key's invitation (`POST /api/admin/portals/:portal/staff`, and `npm run staff --
 * invite` when the server holds the embedded database): the CLI's invitation, recorded under the key,
 * answering the link itself as the CLI prints it.
 */
export async function inviteByInstallation(
  ctx: AppContext,
  portalKey: string,
  body: { email: string; role: StaffRole; displayName?: string | undefined },
): Promise<InstallationInviteAnswer> {
  return inviteStaff(
    ctx,
    portalKey,
    body.email,
    body.role,
    async (tx, inv) =>
      recordAdminChange(
        tx,
        ctx,
        { type: 'admin_key', portalId: inv.portalId },
        {
          entity: 'staff_member',
          entityId: inv.staffUserId,
          action: 'invited',
          before: null,
          after: await memberIn(tx, inv.portalId, inv.staffUserId),
        },
      ),
    body.displayName,
  );
}

/** A new invitation link for a member who has not set a password yet (the old link stops working). */
export async function resendInvitation(
  ctx: AppContext,
  a: StaffPortalAccess,
  staffUserId: number,
): Promise<AccessInviteAnswer> {
  const current = (await listAccessMembers(ctx.database.db, a.portal.portalId, staffUserId))[0];
  if (!current) throw memberNotFound();
  if (current.status === 'active')
    throw new AppError(409, accessErrorCodes.alreadyActive, 'This member already signs in');
  return inviteMember(ctx, a, {
    email: current.email,
    displayName: current.displayName,
    role: current.role,
    groupIds: current.groupIds,
  });
}

/** The live API keys and enabled webhook endpoints the member made: what outlives their access. */
export async function madeByMember(
  ctx: AppContext,
  a: StaffPortalAccess,
  staffUserId: number,
): Promise<AccessMade> {
  const db = ctx.database.db;
  await memberIn(db, a.portal.portalId, staffUserId);
  return listMadeBy(db, a.portal.portalId, staffUserId, ctx.clock.now());
}

/**
 * A member who loses the admin role (removed, or made an agent) keeps nothing through what they made
 * when asked: their keys are revoked and their endpoints disabled in the change's transaction, each
 * audited. Either way the portal's other admins are e-mailed what the member made and whether it
 * still works (in the same transaction: no e-mail for a change that did not happen). An agent who never
 * made anything live is nobody's news.
 */
async function settleWhatTheyMade(
  ctx: AppContext,
  tx: Tx,
  a: StaffPortalAccess,
  member: AccessMember,
  kind: 'removed' | 'demoted',
  revoke: boolean,
): Promise<void> {
  const portalId = a.portal.portalId;
  const made: MadeBy = revoke
    ? await retireMadeBy(tx, ctx, { type: 'staff', ...actorOf(a) }, member.id)
    : await listMadeBy(tx, portalId, member.id, ctx.clock.now());
  const any = made.apiKeys.length + made.webhookEndpoints.length > 0;
  if (member.role !== 'admin' && !any) return;
  const now = ctx.clock.now();
  const link = `${staffDeskUrl(ctx, a.portal.portalKey)}/admin/integrations`;
  for (const to of await otherAdmins(tx, portalId, [a.staffUserId, member.id])) {
    await enqueueEmail(
      tx,
      accessLostEmail({
        to: to.email,
        kind,
        member: `${member.displayName} <${member.email}>`,
        by: a.displayName,
        portalName: a.portal.portalName,
        made,
        retired: revoke,
        link,
        language: a.portal.defaultLanguage,
      }),
      now,
    );
  }
}

export async function setRole(
  ctx: AppContext,
  a: StaffPortalAccess,
  staffUserId: number,
  role: StaffRole,
  revokeMade = false,
): Promise<AccessMember> {
  const portalId = a.portal.portalId;
  const after = await ctx.database.db.transaction(async (tx) => {
    const admins = await lockAdmins(tx, portalId);
    const before = await memberIn(tx, portalId, staffUserId);
    if (before.role === role) return before;
    if (role === 'agent' && admins.includes(staffUserId) && admins.length <= 1) throw lastAdmin();
    await setMemberRole(tx, portalId, staffUserId, role);
    const changed = await memberIn(tx, portalId, staffUserId);
    await record(ctx, tx, a, {
      entity: 'staff_member',
      entityId: staffUserId,
      action: 'role_changed',
      before,
      after: changed,
    });
    if (before.role === 'admin') await settleWhatTheyMade(ctx, tx, a, before, 'demoted', revokeMade);
    return changed;
  });
  kickOutbox();
  return after;
}

/**
 * Removes the member from the portal: the staff guard refuses them this portal from the next request
 * (it reads the membership each time). Someone left without any portal has no account any more (no
 * password; any portal may invite them again), and every session and open link of theirs ends.
 */
export async function removeMember(
  ctx: AppContext,
  a: StaffPortalAccess,
  staffUserId: number,
  revokeMade = false,
): Promise<void> {
  const portalId = a.portal.portalId;
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    const admins = await lockAdmins(tx, portalId);
    const before = await memberIn(tx, portalId, staffUserId);
    if (admins.includes(staffUserId) && admins.length <= 1) throw lastAdmin();
    const left = await deleteMembership(tx, portalId, staffUserId);
    if (left === 0) {
      await forgetStaffAccount(tx, staffUserId);
      await revokeAllStaffSessions(tx, staffUserId, now);
      await retireStaffTokens(tx, staffUserId, now);
    }
    await record(ctx, tx, a, {
      entity: 'staff_member',
      entityId: staffUserId,
      action: 'removed',
      before,
      after: null,
    });
    await settleWhatTheyMade(ctx, tx, a, before, 'removed', revokeMade);
  });
  kickOutbox();
}
