import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  agents,
  assigneeGroups,
  portals,
  staffGroupMembers,
  staffMemberships,
  staffUsers,
} from '../../db/schema';
import { hashPassword } from '../../platform/passwords';

/**
 * The demo portal's staff desk (issue 13): two of its agents with a desk account, signed in on
 * `/demo/staff/login` with the demo password (README). Marco is the portal's admin, Sara an agent;
 * each works in the named assignee groups ("My groups"). Agents and groups by their back-office ids.
 */
export const DEMO_STAFF = [
  {
    email: 'marco.ferri@sportello.example',
    displayName: 'Marco Ferri',
    role: 'admin',
    agentExtId: 1,
    groupExtIds: [1],
  },
  {
    email: 'sara.conti@sportello.example',
    displayName: 'Sara Conti',
    role: 'agent',
    agentExtId: 2,
    groupExtIds: [1, 2],
  },
] as const;

/** Adds the demo staff to the demo portal, in one transaction; an e-mail already staff is left alone. */
export async function loadDemoStaff(db: Db, portalKey: string, password: string, now: Date): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const [portal] = await tx.select({ id: portals.id }).from(portals).where(eq(portals.key, portalKey));
    if (!portal) return;
    for (const s of DEMO_STAFF) {
      const [user] = await tx
        .insert(staffUsers)
        .values({
          email: s.email,
          displayName: s.displayName,
          passwordHash,
          passwordChangedAt: now,
          status: 'active',
          createdAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: staffUsers.id });
      if (!user) continue;
      const [agent] = await tx
        .select({ id: agents.id })
        .from(agents)
        .where(and(eq(agents.portalId, portal.id), eq(agents.extId, s.agentExtId)));
      await tx.insert(staffMemberships).values({
        staffUserId: user.id,
        portalId: portal.id,
        role: s.role,
        agentId: agent?.id ?? null,
        createdAt: now,
      });
      const groups = await tx
        .select({ id: assigneeGroups.id })
        .from(assigneeGroups)
        .where(
          and(eq(assigneeGroups.portalId, portal.id), inArray(assigneeGroups.extId, [...s.groupExtIds])),
        );
      if (groups.length > 0)
        await tx
          .insert(staffGroupMembers)
          .values(groups.map((g) => ({ staffUserId: user.id, groupId: g.id })))
          .onConflictDoNothing();
    }
  });
}
