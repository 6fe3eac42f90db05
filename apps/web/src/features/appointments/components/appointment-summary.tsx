import { useTranslation } from 'react-i18next';
import { formatDate, formatTime } from '../../../lib/format';

/** `23/11/2026, 09:00–10:00` in the portal's zone (end date added when it is another day). */
export function useWhenText() {
  const { t } = useTranslation();
  return (start: string, end: string) => {
    const sameDay = formatDate(start) === formatDate(end);
    return t('appointments.timeRange', {
      date: formatDate(start),
      start: formatTime(start),
      end: sameDay ? formatTime(end) : `${formatDate(end)} ${formatTime(end)}`,
    });
  };
}

export function durationText(t: (k: string, o?: Record<string, unknown>) => string, minutes: number): string {
  return t('appointments.durationValue', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}
