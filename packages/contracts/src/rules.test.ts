// Rules the server enforces, stated in the shared schemas (so the OpenAPI document and the web forms
// see them too). Each refusal names the code the API answers (issueCode).
import { describe, expect, it } from 'vitest';
import { importAppointmentLinkSchema, importStatusStepListSchema } from './admin';
import { appointmentBookingRequestSchema, appointmentSlotsQuerySchema } from './appointments';
import { issueCode } from './errors';
import { newTicketRequestSchema } from './tickets';

const codes = (r: { success: boolean; error?: { issues: unknown[] } }) =>
  r.success ? [] : r.error!.issues.map(issueCode);

describe('rules in the shared schemas', () => {
  it('books durations in 5-minute steps', () => {
    const booking = {
      start: '2026-11-20T10:00:00Z',
      durationMinutes: 45,
      firstName: 'A',
      lastName: 'B',
      phone: '1',
      email: 'a@b.it',
    };
    expect(appointmentBookingRequestSchema.safeParse(booking).success).toBe(true);
    expect(codes(appointmentBookingRequestSchema.safeParse({ ...booking, durationMinutes: 47 }))).toEqual([
      'invalid_duration',
    ]);
    const q = { from: '2026-11-20', to: '2026-11-21' };
    expect(codes(appointmentSlotsQuerySchema.safeParse({ ...q, duration: '47' }))).toEqual([
      'invalid_duration',
    ]);
    const link = {
      eventKey: 'call-with-anna',
      title: 'Call',
      agentId: 1,
      defaultDurationMinutes: 47,
      slotMinutes: 30,
      daysAhead: 10,
      weeklyHours: {},
    };
    expect(importAppointmentLinkSchema.safeParse(link).success).toBe(false);
    expect(importAppointmentLinkSchema.safeParse({ ...link, defaultDurationMinutes: 45 }).success).toBe(true);
  });

  it('takes at most one default and one closing step in a list of status steps', () => {
    const step = (id: number, more: object = {}) => ({ id, name: `s${id}`, taskStatus: 0, ...more });
    expect(
      importStatusStepListSchema.safeParse([step(1, { isDefault: true }), step(2, { isClosing: true })])
        .success,
    ).toBe(true);
    expect(
      importStatusStepListSchema.safeParse([step(1, { isDefault: true }), step(2, { isDefault: true })])
        .success,
    ).toBe(false);
    expect(
      importStatusStepListSchema.safeParse([step(1, { isClosing: true }), step(2, { isClosing: true })])
        .success,
    ).toBe(false);
  });

  it('refuses a blank ticket title or no type as required_fields', () => {
    const ticket = { title: 'Printer', taskTypeId: 1, description: '<p>x</p>' };
    expect(newTicketRequestSchema.safeParse(ticket).success).toBe(true);
    expect(codes(newTicketRequestSchema.safeParse({ ...ticket, title: ' \t ' }))).toEqual([
      'required_fields',
    ]);
    expect(codes(newTicketRequestSchema.safeParse({ ...ticket, taskTypeId: null }))).toEqual([
      'required_fields',
    ]);
  });
});

describe('booking fields', () => {
  const booking = {
    start: '2026-11-20T10:00:00Z',
    durationMinutes: 60,
    firstName: 'Anna',
    lastName: 'Verdi',
    phone: '+39 02 1234',
    email: 'anna@example.com',
  };
  it('refuses blank or absent required fields as fields_required, a malformed address as invalid_email', () => {
    expect(appointmentBookingRequestSchema.safeParse(booking).success).toBe(true);
    expect(codes(appointmentBookingRequestSchema.safeParse({ ...booking, lastName: '  ' }))).toEqual([
      'fields_required',
    ]);
    const { phone: _phone, ...noPhone } = booking;
    expect(codes(appointmentBookingRequestSchema.safeParse(noPhone))).toEqual(['fields_required']);
    expect(codes(appointmentBookingRequestSchema.safeParse({ ...booking, email: 'not-an-address' }))).toEqual(
      ['invalid_email'],
    );
  });
});
