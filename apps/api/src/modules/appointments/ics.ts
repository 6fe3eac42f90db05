/**
 * A small iCalendar (RFC 5545) writer for one event, with the iTIP method (RFC 5546) of the e-mail
 * that carries it. Times are written as local times of the portal's zone (`DTSTART;TZID=…`) with a
 * VTIMEZONE built from the zone's real offset changes around the event, so a calendar shows the
 * appointment in the zone it was booked in, and converts it right wherever the reader is. The one
 * local time a TZID cannot name (the second pass of a repeated hour: RFC 5545 3.3.5 reads it as the
 * first) is written in UTC instead.
 */
import { zoneOffsetMinutes } from '@sportello/contracts/time-zone';

export interface IcsPerson {
  name: string;
  email: string;
}

export interface IcsEvent {
  method: 'REQUEST' | 'CANCEL' | 'PUBLISH';
  /** Stable across the invitation and its cancellation, so the calendar updates the same event. */
  uid: string;
  /** 0 for the invitation; higher for each later change (a cancellation). */
  sequence: number;
  status: 'CONFIRMED' | 'CANCELLED';
  stamp: Date;
  start: Date;
  end: Date;
  timeZone: string;
  summary: string;
  description: string;
  url?: string | undefined;
  organizer: IcsPerson;
  attendees: IcsPerson[];
}

const CRLF = '\r\n';
const HOUR = 3600_000;

/** TEXT values (RFC 5545 3.3.11): backslash, semicolon, comma and newlines escaped; other controls dropped. */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\\/g, '\\\\')
      .replace(/;/g, '\\;')
      .replace(/,/g, '\\,')
      .replace(/\r\n|\r|\n/g, '\\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, '')
  );
}

/** A parameter value (CN=…): quoted, since names hold commas and colons; DQUOTE cannot be escaped. */
export function paramValue(value: string): string {
  // eslint-disable-next-line no-control-regex
  return `"${value.replace(/["\u0000-\u001f\u007f]/g, '')}"`;
}

/**
 * Folds a content line at 75 octets (RFC 5545 3.1): continuation lines start with one space, and a
 * UTF-8 character is never split.
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  let limit = 75;
  for (const ch of line) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (octets + size > limit) {
      parts.push(current);
      current = ' ';
      octets = 1;
      limit = 75;
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join(CRLF);
}

/** `YYYYMMDDTHHMMSS` of the UTC fields of an instant. */
const basic = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '');
const utcStamp = (d: Date) => `${basic(d.getTime())}Z`;
const offsetAt = zoneOffsetMinutes;

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

/** Local wall time of an instant at a given offset, as an iCalendar floating DATE-TIME. */
const wallAt = (ms: number, offsetMinutes: number) => basic(ms + offsetMinutes * 60_000);

interface Transition {
  at: number;
  from: number;
  to: number;
}

/** The zone's offset changes in [from, to), found by sampling every 12 hours and bisecting to the minute. */
export function zoneTransitions(tz: string, from: Date, to: Date): Transition[] {
  const out: Transition[] = [];
  const step = 12 * HOUR;
  let t = from.getTime();
  let off = offsetAt(t, tz);
  while (t < to.getTime()) {
    const next = Math.min(t + step, to.getTime());
    const nextOff = offsetAt(next, tz);
    if (nextOff !== off) {
      let lo = t;
      let hi = next;
      while (hi - lo > 60_000) {
        const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
        if (offsetAt(mid, tz) === off) lo = mid;
        else hi = mid;
      }
      out.push({ at: hi, from: off, to: nextOff });
      off = nextOff;
    }
    t = next;
  }
  return out;
}

/**
 * VTIMEZONE for the event: every offset change from the start of the year before the event to the
 * end of the year after it (each as a one-off observance), or one fixed STANDARD observance for a
 * zone that changes nothing in that window.
 */
export function vtimezone(tz: string, start: Date, end: Date): string[] {
  const from = new Date(Date.UTC(start.getUTCFullYear() - 1, 0, 1));
  const to = new Date(Date.UTC(end.getUTCFullYear() + 2, 0, 1));
  const lines = ['BEGIN:VTIMEZONE', `TZID:${tz}`];
  const transitions = zoneTransitions(tz, from, to);
  if (transitions.length === 0) {
    const off = formatOffset(offsetAt(start.getTime(), tz));
    lines.push(
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      `TZOFFSETFROM:${off}`,
      `TZOFFSETTO:${off}`,
      'END:STANDARD',
    );
  }
  for (const tr of transitions) {
    const kind = tr.to > tr.from ? 'DAYLIGHT' : 'STANDARD';
    lines.push(
      `BEGIN:${kind}`,
      // An observance starts at the local time read with the offset in force before it.
      `DTSTART:${wallAt(tr.at, tr.from)}`,
      `TZOFFSETFROM:${formatOffset(tr.from)}`,
      `TZOFFSETTO:${formatOffset(tr.to)}`,
      `END:${kind}`,
    );
  }
  lines.push('END:VTIMEZONE');
  return lines;
}

/**
 * `;TZID=zone:local` when the local time names this instant alone; `:…Z` (UTC) for a local time
 * that happens twice. RFC 5545 reads such a time as its first pass, but calendars differ (ical.js
 * takes the second), so neither pass is left to interpretation.
 */
export function zonedDateTime(instant: Date, tz: string): string {
  const ms = instant.getTime();
  const off = offsetAt(ms, tz);
  for (const other of [offsetAt(ms - 24 * HOUR, tz), offsetAt(ms + 24 * HOUR, tz)]) {
    if (other === off) continue;
    const twin = ms + (off - other) * 60_000;
    if (offsetAt(twin, tz) === other) return `:${utcStamp(instant)}`;
  }
  return `;TZID=${tz}:${wallAt(ms, off)}`;
}

const mailto = (p: IcsPerson) => `mailto:${p.email.replace(/[\s"(),:;<>[\]\\]/g, '')}`;

/** The whole calendar object: CRLF line ends, folded lines, escaped text. */
export function buildIcs(e: IcsEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'PRODID:-//Sportello//Appointments//EN',
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    `METHOD:${e.method}`,
    ...vtimezone(e.timeZone, e.start, e.end),
    'BEGIN:VEVENT',
    `UID:${escapeText(e.uid)}`,
    `SEQUENCE:${e.sequence}`,
    `DTSTAMP:${utcStamp(e.stamp)}`,
    `DTSTART${zonedDateTime(e.start, e.timeZone)}`,
    `DTEND${zonedDateTime(e.end, e.timeZone)}`,
    `SUMMARY:${escapeText(e.summary)}`,
    `DESCRIPTION:${escapeText(e.description)}`,
    ...(e.url ? [`URL:${e.url.replace(/[\s"]/g, '')}`] : []),
    `ORGANIZER;CN=${paramValue(e.organizer.name)}:${mailto(e.organizer)}`,
    ...e.attendees.map(
      (a) =>
        `ATTENDEE;CN=${paramValue(a.name)};CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:${mailto(a)}`,
    ),
    `STATUS:${e.status}`,
    `TRANSP:${e.status === 'CANCELLED' ? 'TRANSPARENT' : 'OPAQUE'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}
