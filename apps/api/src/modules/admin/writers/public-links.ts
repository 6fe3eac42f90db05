/** Rows behind the public pages reached by key: signature requests, appointment links, task links. */
import { appointmentLinks, signatureRequests, taskLinks } from '../../../db/schema';
import { chunk } from '../import.files';
import { JSON_BATCH, writeByKey, type PortalItem, type PortalScope } from './support';

export async function writeSignatureRequests(
  s: PortalScope,
  rows: PortalItem<'signatureRequests'>[],
): Promise<void> {
  if (rows.length === 0) return;
  await s.ids.contacts.ensure(rows.map((r) => r.contactId));
  // A signed request keeps its signature (signed_at, signed_file_id).
  for (const part of chunk(
    rows.map((r) => ({
      portalId: s.portalId,
      documentKey: r.documentKey,
      contactId: s.ids.contacts.must(r.contactId),
      documentName: r.documentName,
      fileId: s.fileId(r.file),
      requireOtp: r.requireOtp,
      expiresAt: s.atOrNull(r.expiresAt),
    })),
    JSON_BATCH,
  ))
    await writeByKey(
      s,
      signatureRequests,
      'documentKey',
      ['contactId', 'documentName', 'fileId', 'requireOtp', 'expiresAt'],
      null,
      part,
    );
}

const WEEK_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

export async function writeAppointmentLinks(
  s: PortalScope,
  rows: PortalItem<'appointmentLinks'>[],
): Promise<void> {
  if (rows.length === 0) return;
  await s.ids.agents.ensure(rows.map((l) => l.agentId));
  for (const part of chunk(
    rows.map((l) => ({
      portalId: s.portalId,
      eventKey: l.eventKey,
      title: l.title,
      agentId: s.ids.agents.must(l.agentId),
      defaultDurationMinutes: l.defaultDurationMinutes,
      slotMinutes: l.slotMinutes,
      daysAhead: l.daysAhead,
      // Every day present, in one order: the stored value is the same for the same hours.
      weeklyHours: Object.fromEntries(WEEK_DAYS.map((d) => [d, l.weeklyHours[d] ?? []])),
    })),
    JSON_BATCH,
  ))
    await writeByKey(
      s,
      appointmentLinks,
      'eventKey',
      ['title', 'agentId', 'defaultDurationMinutes', 'slotMinutes', 'daysAhead', 'weeklyHours'],
      null,
      part,
    );
}

export async function writeTaskLinks(s: PortalScope, rows: PortalItem<'taskLinks'>[]): Promise<void> {
  if (rows.length === 0) return;
  await s.ids.tickets.ensure(rows.map((l) => l.ticketId));
  for (const part of chunk(
    rows.map((l) => ({
      portalId: s.portalId,
      eventKey: l.eventKey,
      ticketId: s.ids.tickets.must(l.ticketId),
    })),
    JSON_BATCH,
  ))
    await writeByKey(s, taskLinks, 'eventKey', ['ticketId'], null, part);
}
