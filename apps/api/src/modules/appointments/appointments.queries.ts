import { and, asc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { agents, appointmentLinks, appointments, appointmentSlotClaims, portals } from '../../db/schema';
import type { Interval } from './slots';

type Conn = Db | Tx;

/** Portal keys are lower-case; the route value is matched case-insensitively. */
const portalKeyIs = (key: string) => eq(portals.key, sql`lower(${key})`);

export interface LinkRow {
  linkId: number;
  portalId: number;
  portalKey: string;
  portalName: string;
  timeZone: string;
  defaultLanguage: string;
  title: string;
  defaultDurationMinutes: number;
  slotMinutes: number;
  daysAhead: number;
  weeklyHours: unknown;
  agentId: number;
  agentName: string;
  agentEmail: string | null;
}

const linkColumns = {
  linkId: appointmentLinks.id,
  portalId: portals.id,
  portalKey: portals.key,
  portalName: portals.name,
  timeZone: portals.timeZone,
  defaultLanguage: portals.defaultLanguage,
  title: appointmentLinks.title,
  defaultDurationMinutes: appointmentLinks.defaultDurationMinutes,
  slotMinutes: appointmentLinks.slotMinutes,
  daysAhead: appointmentLinks.daysAhead,
  weeklyHours: appointmentLinks.weeklyHours,
  agentId: agents.id,
  agentName: agents.displayName,
  agentEmail: agents.email,
};

/** One link by portal key and event key, with its portal and agent, in one query. */
export async function findLink(db: Conn, portalKey: string, eventKey: string): Promise<LinkRow | undefined> {
  const rows = await db
    .select(linkColumns)
    .from(appointmentLinks)
    .innerJoin(portals, eq(portals.id, appointmentLinks.portalId))
    .innerJoin(agents, eq(agents.id, appointmentLinks.agentId))
    .where(and(portalKeyIs(portalKey), eq(appointmentLinks.eventKey, eventKey)))
    .limit(1);
  return rows[0];
}

/** The agent's active appointments that overlap a range, from any link. */
export async function findBusy(db: Conn, agentId: number, range: Interval): Promise<Interval[]> {
  const rows = await db
    .select({ start: appointments.startsAt, end: appointments.endsAt })
    .from(appointments)
    .where(
      and(
        eq(appointments.agentId, agentId),
        isNull(appointments.cancelledAt),
        lt(appointments.startsAt, range.end),
        gt(appointments.endsAt, range.start),
      ),
    )
    .orderBy(asc(appointments.startsAt));
  return rows;
}

export interface NewAppointment {
  portalId: number;
  linkId: number;
  agentId: number;
  cancelKey: string;
  startsAt: Date;
  endsAt: Date;
  firstName: string;
  lastName: string;
  phone: string;
  email: string;
  companyName: string;
  notes: string;
  createdAt: Date;
}

export async function insertAppointment(tx: Tx, row: NewAppointment): Promise<number> {
  const [inserted] = await tx.insert(appointments).values(row).returning({ id: appointments.id });
  if (!inserted) throw new Error('appointment insert returned no row');
  return inserted.id;
}

/** One statement for every claim: a row another booking holds makes the whole insert fail (23505). */
export async function insertClaims(tx: Tx, agentId: number, appointmentId: number, starts: Date[]) {
  await tx
    .insert(appointmentSlotClaims)
    .values(starts.map((slotStart) => ({ agentId, slotStart, appointmentId })));
}

export async function deleteClaims(tx: Tx, appointmentId: number): Promise<void> {
  await tx.delete(appointmentSlotClaims).where(eq(appointmentSlotClaims.appointmentId, appointmentId));
}

export interface AppointmentRow extends LinkRow {
  appointmentId: number;
  cancelKey: string;
  startsAt: Date;
  endsAt: Date;
  firstName: string;
  lastName: string;
  phone: string;
  email: string | null;
  companyName: string;
  notes: string;
  cancelledAt: Date | null;
}

/** One appointment by its cancellation key, scoped to the portal, with its link, portal and agent. */
export async function findAppointment(
  db: Conn,
  portalKey: string,
  cancelKey: string,
): Promise<AppointmentRow | undefined> {
  const rows = await db
    .select({
      ...linkColumns,
      appointmentId: appointments.id,
      cancelKey: appointments.cancelKey,
      startsAt: appointments.startsAt,
      endsAt: appointments.endsAt,
      firstName: appointments.firstName,
      lastName: appointments.lastName,
      phone: appointments.phone,
      email: appointments.email,
      companyName: appointments.companyName,
      notes: appointments.notes,
      cancelledAt: appointments.cancelledAt,
    })
    .from(appointments)
    .innerJoin(portals, eq(portals.id, appointments.portalId))
    .innerJoin(appointmentLinks, eq(appointmentLinks.id, appointments.linkId))
    .innerJoin(agents, eq(agents.id, appointments.agentId))
    .where(and(portalKeyIs(portalKey), eq(appointments.cancelKey, cancelKey)))
    .limit(1);
  return rows[0];
}

/** Cancels if still active; answers the cancellation time, or undefined when it was cancelled already. */
export async function markCancelled(tx: Tx, appointmentId: number, now: Date): Promise<Date | undefined> {
  const rows = await tx
    .update(appointments)
    .set({ cancelledAt: now })
    .where(and(eq(appointments.id, appointmentId), isNull(appointments.cancelledAt)))
    .returning({ cancelledAt: appointments.cancelledAt });
  return rows[0]?.cancelledAt ?? undefined;
}
