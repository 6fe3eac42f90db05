import { notifications } from '@mantine/notifications';
import type { TFunction } from 'i18next';

/** A success toast whose close button has a name (axe: button-name). */
export function notifySuccess(message: string, t: TFunction): void {
  notifications.show({ message, color: 'green', closeButtonProps: { 'aria-label': t('common.close') } });
}
