import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { buildIcs, escapeText, foldLine, vtimezone, zonedDateTime, type IcsEvent } from './ics';

const event = (over: Partial<IcsEvent> = {}): IcsEvent => ({
  method: 'REQUEST',
  uid: 'abc123@portal.example',
  sequence: 0,
  status: 'CONFIRMED',
  stamp: new Date('2026-11-20T10:00:00Z'),
  start: new Date('2026-11-23T08:00:00Z'),
  end: new Date('2026-11-23T09:00:00Z'),
  timeZone: 'Europe/Rome',
  summary: 'Sopralluogo; tetto, grondaie \\ e "altro"',
  description: 'Riga uno\nPer annullare: https://portal.example/appointments/acme/cancellation/KEY',
  url: 'https://portal.example/appointments/acme/cancellation/KEY',
  organizer: { name: 'Bianchi, Luca', email: 'luca@acme.example' },
  attendees: [{ name: 'Mario "Super" Rossi', email: 'mario@example.com' }],
  ...over,
});

/** Reads an .ics with ical.js (Mozilla's parser), registering its VTIMEZONEs first. */
function parse(ics: string) {
  const comp = new ICAL.Component(ICAL.parse(ics));
  for (const tz of comp.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  const vevent = comp.getFirstSubcomponent('vevent');
  if (!vevent) throw new Error('no VEVENT');
  return { comp, vevent, event: new ICAL.Event(vevent) };
}

describe('content lines', () => {
  it('escapes TEXT values', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });

  it('folds at 75 octets without splitting a UTF-8 character', () => {
    const line = `DESCRIPTION:${'è€😀a'.repeat(40)}`;
    const folded = foldLine(line);
    const physical = folded.split('\r\n');
    expect(physical.length).toBeGreaterThan(1);
    for (const p of physical) {
      expect(Buffer.byteLength(p, 'utf8')).toBeLessThanOrEqual(75);
      expect(p).not.toContain('\uFFFD');
    }
    for (const p of physical.slice(1)) expect(p.startsWith(' ')).toBe(true);
    expect(physical.map((p, i) => (i === 0 ? p : p.slice(1))).join('')).toBe(line);
  });

  it('leaves short lines alone', () => {
    expect(foldLine('VERSION:2.0')).toBe('VERSION:2.0');
  });
});

describe('time zones', () => {
  it('writes the VTIMEZONE with Rome’s real transitions', () => {
    const lines = vtimezone(
      'Europe/Rome',
      new Date('2027-03-28T01:00:00Z'),
      new Date('2027-03-28T02:00:00Z'),
    );
    const text = lines.join('\n');
    expect(text).toContain('TZID:Europe/Rome');
    expect(text).toContain('BEGIN:DAYLIGHT\nDTSTART:20270328T020000\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0200');
    expect(text).toContain('BEGIN:STANDARD\nDTSTART:20261025T030000\nTZOFFSETFROM:+0200\nTZOFFSETTO:+0100');
  });

  it('writes one fixed observance for a zone without changes', () => {
    const text = vtimezone(
      'Asia/Tokyo',
      new Date('2026-11-23T00:00:00Z'),
      new Date('2026-11-23T01:00:00Z'),
    ).join('\n');
    expect(text).toContain('BEGIN:STANDARD\nDTSTART:19700101T000000\nTZOFFSETFROM:+0900\nTZOFFSETTO:+0900');
    expect(text).not.toContain('DAYLIGHT');
  });

  it('names ordinary times with TZID and repeated ones in UTC', () => {
    expect(zonedDateTime(new Date('2026-11-23T08:00:00Z'), 'Europe/Rome')).toBe(
      ';TZID=Europe/Rome:20261123T090000',
    );
    expect(zonedDateTime(new Date('2027-03-28T01:00:00Z'), 'Europe/Rome')).toBe(
      ';TZID=Europe/Rome:20270328T030000',
    );
    // 02:00 local happens twice on 2026-10-25: 00:00Z and 01:00Z.
    expect(zonedDateTime(new Date('2026-10-25T00:00:00Z'), 'Europe/Rome')).toBe(':20261025T000000Z');
    expect(zonedDateTime(new Date('2026-10-25T01:00:00Z'), 'Europe/Rome')).toBe(':20261025T010000Z');
    expect(zonedDateTime(new Date('2026-10-25T02:00:00Z'), 'Europe/Rome')).toBe(
      ';TZID=Europe/Rome:20261025T030000',
    );
  });
});

describe('buildIcs', () => {
  it('uses CRLF only, folds every line and wraps one VEVENT in a VCALENDAR', () => {
    const ics = buildIcs(event());
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(ics.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(ics).toContain('\r\nMETHOD:REQUEST\r\n');
    expect(ics).toContain('\r\nEND:VCALENDAR\r\n');
  });

  it('reads back through ical.js with the same instants, texts and people', () => {
    const e = event();
    const { comp, vevent, event: parsed } = parse(buildIcs(e));
    expect(comp.getFirstPropertyValue('method')).toBe('REQUEST');
    expect(parsed.uid).toBe(e.uid);
    expect(parsed.startDate.zone?.tzid).toBe('Europe/Rome');
    expect(parsed.startDate.toJSDate().toISOString()).toBe(e.start.toISOString());
    expect(parsed.endDate.toJSDate().toISOString()).toBe(e.end.toISOString());
    expect(parsed.summary).toBe(e.summary);
    expect(parsed.description).toBe(e.description);
    expect(vevent.getFirstPropertyValue('dtstamp')?.toString()).toBe('2026-11-20T10:00:00Z');
    expect(vevent.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(parsed.sequence).toBe(0);
    const organizer = vevent.getFirstProperty('organizer');
    expect(organizer?.getFirstValue()).toBe('mailto:luca@acme.example');
    expect(organizer?.getParameter('cn')).toBe('Bianchi, Luca');
    const attendee = vevent.getFirstProperty('attendee');
    expect(attendee?.getFirstValue()).toBe('mailto:mario@example.com');
    expect(attendee?.getParameter('cn')).toBe('Mario Super Rossi');
  });

  it('keeps instants right across both DST changes and in other zones', () => {
    const cases: [string, string, string][] = [
      ['Europe/Rome', '2027-03-27T23:30:00Z', '2027-03-28T01:30:00Z'], // 00:30 CET → 03:30 CEST
      ['Europe/Rome', '2026-10-24T23:30:00Z', '2026-10-25T01:30:00Z'], // across the repeated hour
      ['Europe/Rome', '2026-07-01T07:00:00Z', '2026-07-01T08:00:00Z'],
      ['America/New_York', '2026-11-01T05:30:00Z', '2026-11-01T06:30:00Z'], // 01:30 EDT, repeated
      ['Asia/Kolkata', '2026-11-23T03:30:00Z', '2026-11-23T04:15:00Z'],
    ];
    for (const [timeZone, start, end] of cases) {
      const { event: parsed } = parse(
        buildIcs(event({ timeZone, start: new Date(start), end: new Date(end) })),
      );
      expect(parsed.startDate.toJSDate().toISOString(), `${timeZone} ${start}`).toBe(
        new Date(start).toISOString(),
      );
      expect(parsed.endDate.toJSDate().toISOString(), `${timeZone} ${end}`).toBe(new Date(end).toISOString());
    }
  });

  it('writes a cancellation with the same UID, a higher SEQUENCE and STATUS:CANCELLED', () => {
    const {
      comp,
      vevent,
      event: parsed,
    } = parse(buildIcs(event({ method: 'CANCEL', sequence: 1, status: 'CANCELLED' })));
    expect(comp.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(parsed.uid).toBe('abc123@portal.example');
    expect(parsed.sequence).toBe(1);
    expect(vevent.getFirstPropertyValue('status')).toBe('CANCELLED');
  });
});
