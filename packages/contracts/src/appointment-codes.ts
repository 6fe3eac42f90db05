// The appointments area's error codes, limits and the booking form's rules: no zod, so the web's booking
// page can use them without loading the schemas (appointments.ts re-exports them).

/** Stable error codes of the appointments area; the client maps them to translated texts. */
export const appointmentErrorCodes = {
  /** 404: no appointment link with this key in this portal. */
  linkNotFound: 'link_not_found',
  /** 404: no appointment with this cancellation key in this portal. */
  appointmentNotFound: 'appointment_not_found',
  /** 400: a required field is empty ('Please fill in the required fields'). */
  fieldsRequired: 'fields_required',
  /** 400: the e-mail address is not one. */
  invalidEmail: 'invalid_email',
  /** 400: the start is not a slot this link offers (outside the hours, in the past, beyond daysAhead). */
  slotNotOffered: 'slot_not_offered',
  /** 409: another booking took the slot first. */
  slotTaken: 'slot_taken',
  /** 400: the duration is not a multiple of the booking grain or is out of bounds. */
  invalidDuration: 'invalid_duration',
  /** 400: the slots range is reversed or too long. */
  invalidRange: 'invalid_range',
  /** 400: a name holds markup or a web address (the confirmation e-mail would carry it to anyone). */
  invalidName: 'invalid_name',
  /** 429 with Retry-After: too many bookings from this address, on this link or to this e-mail. */
  tooManyBookings: 'too_many_bookings',
} as const;

/** A4/A8 messages the server also answers with. */
export const APPOINTMENT_FIELDS_REQUIRED_MESSAGE = 'Please fill in the required fields';

/** Durations are booked in steps of this many minutes (the slot claims' grain divides it). */
export const APPOINTMENT_DURATION_STEP = 5;

/** The longest appointment one booking may take. */
export const APPOINTMENT_MAX_DURATION_MINUTES = 12 * 60;

export const APPOINTMENT_TEXT_MAX = 200;

export const APPOINTMENT_NOTES_MAX = 4000;

export const APPOINTMENT_REQUIRED_FIELDS = ['firstName', 'lastName', 'phone', 'email'] as const;

/** A plausible address: something@domain.tld without spaces (the mail server is the real judge). */
export const appointmentEmailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
