import { taskPageErrorCodes, type TaskPage } from '@sportello/contracts';
import type { AppContext } from '../../platform/context';
import { notFound } from '../../platform/errors';
import { sanitizeHtml } from '../../platform/html';
import { findTaskComments, findTaskTicket } from './tasks.queries';

/**
 * The public summary of one ticket (SPEC B3). The key is the only credential, so the answer names
 * people by display name only and carries no ids, e-mail addresses, phone numbers or file links.
 */
export async function getTaskPage(ctx: AppContext, company: string, eventKey: string): Promise<TaskPage> {
  const db = ctx.database.db;
  const t = await findTaskTicket(db, company, eventKey);
  if (!t) throw notFound('No task with this key', taskPageErrorCodes.taskNotFound);
  const comments = await findTaskComments(db, t.ticketId);
  const assignee = [t.assigneeFirstName, t.assigneeLastName].filter((s) => s && s.trim()).join(' ');
  return {
    portalName: t.portalName,
    timeZone: t.timeZone,
    ticketNumber: t.ticketNumber,
    internalAnnualProgressive: t.internalAnnualProgressive,
    title: t.title,
    type: { name: t.typeName, color: t.typeColor },
    status: { name: t.statusName, isClosed: t.taskStatus === 2 },
    assignee: assignee || null,
    group: t.groupName,
    // A closed ticket has nothing planned, whatever the back office left in the field.
    nextPlannedActivityInfo: t.taskStatus === 2 ? null : t.nextPlannedActivityInfo,
    createdOn: t.createdOn.toISOString(),
    comments: comments.map((c) => ({
      author: c.agentName ?? c.contactName ?? '',
      authorKind: c.agentName !== null ? ('agent' as const) : ('contact' as const),
      date: c.creationDate.toISOString(),
      // Stored sanitised; sanitised again because this page is public.
      message: sanitizeHtml(c.message),
    })),
  };
}
