import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  agents,
  assigneeGroups,
  contacts,
  portals,
  statusSteps,
  taskLinks,
  ticketComments,
  tickets,
  ticketTypes,
} from '../../db/schema';

export interface TaskTicketRow {
  ticketId: number;
  portalName: string;
  timeZone: string;
  ticketNumber: string;
  internalAnnualProgressive: number;
  title: string;
  typeName: string;
  typeColor: string | null;
  statusName: string;
  taskStatus: number;
  assigneeFirstName: string | null;
  assigneeLastName: string | null;
  groupName: string | null;
  nextPlannedActivityInfo: string | null;
  createdOn: Date;
}

/** The ticket a task link points to, scoped to the link's portal, in one query. */
export async function findTaskTicket(
  db: Db,
  portalKey: string,
  eventKey: string,
): Promise<TaskTicketRow | undefined> {
  const rows = await db
    .select({
      ticketId: tickets.id,
      portalName: portals.name,
      timeZone: portals.timeZone,
      ticketNumber: tickets.ticketNumber,
      internalAnnualProgressive: tickets.internalAnnualProgressive,
      title: tickets.title,
      typeName: ticketTypes.name,
      typeColor: ticketTypes.color,
      statusName: statusSteps.name,
      taskStatus: statusSteps.taskStatus,
      assigneeFirstName: agents.firstName,
      assigneeLastName: agents.lastName,
      groupName: assigneeGroups.name,
      nextPlannedActivityInfo: tickets.nextPlannedActivityInfo,
      createdOn: tickets.createdOn,
    })
    .from(taskLinks)
    .innerJoin(portals, eq(portals.id, taskLinks.portalId))
    .innerJoin(tickets, and(eq(tickets.id, taskLinks.ticketId), eq(tickets.portalId, taskLinks.portalId)))
    .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.typeId))
    .innerJoin(statusSteps, eq(statusSteps.id, tickets.statusStepId))
    .leftJoin(agents, eq(agents.id, tickets.assignedUserId))
    .leftJoin(assigneeGroups, eq(assigneeGroups.id, tickets.assignedGroupId))
    .where(and(eq(portals.key, sql`lower(${portalKey})`), eq(taskLinks.eventKey, eventKey)))
    .limit(1);
  return rows[0];
}

export interface TaskCommentRow {
  message: string;
  creationDate: Date;
  agentName: string | null;
  contactName: string | null;
}

/** The ticket's comments, oldest first, with their author's public name. */
export async function findTaskComments(db: Db, ticketId: number): Promise<TaskCommentRow[]> {
  return (
    db
      .select({
        message: ticketComments.message,
        creationDate: ticketComments.creationDate,
        agentName: agents.displayName,
        contactName: contacts.referentName,
      })
      .from(ticketComments)
      .leftJoin(agents, eq(agents.id, ticketComments.senderAgentId))
      .leftJoin(contacts, eq(contacts.id, ticketComments.senderContactId))
      // Internal notes are the staff's: the public task page never shows them.
      .where(and(eq(ticketComments.ticketId, ticketId), eq(ticketComments.internal, false)))
      .orderBy(asc(ticketComments.creationDate), asc(ticketComments.id))
  );
}
