/*
 * The toast container and its styles, loaded apart from the first paint (provider.tsx). Core's
 * Notification styles come here too, not only with mantine-rest.css: a toast can come before that.
 */
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';

export { Notifications } from '@mantine/notifications';
