/**
 * Days and offsets in the portal's zone for the pages that edit dates (the desk's administration, the
 * booking page): apart from time-zone.ts, which the first load carries, so these stay out of it.
 */
import { localDay, todayIn, zoneOffsetLabel as offsetLabel } from '@sportello/contracts/time-zone';
import { displayTimeZone, INSTANT, readLikeDayjs } from './time-zone';

/** Today in the portal's zone, `YYYY-MM-DD`: the default of a form's date (never today in UTC). */
export const todayInPortal = (): string => todayIn(displayTimeZone());

/** The portal's calendar day of an instant the API sent (a day alone stays itself), for date fields. */
export const portalDayOf = (iso: string | null | undefined): string =>
  !iso ? '' : /^\d{4}-\d{2}-\d{2}$/.test(iso) ? iso : localDay(iso, displayTimeZone());

/** The UTC offset of a zone at an instant, as `+01:00` (to tell apart two slots with one wall time). */
export function zoneOffsetLabel(iso: string | Date, timeZone: string): string {
  const instant = typeof iso === 'string' && !INSTANT.test(iso) ? readLikeDayjs(iso) : new Date(iso);
  return offsetLabel(instant.getTime(), timeZone);
}
