import { Group, Stack, Text, UnstyledButton } from '@mantine/core';
import {
  IconBell,
  IconFileInvoice,
  IconFileText,
  IconMessage,
  IconSignature,
  IconStatusChange,
} from '@tabler/icons-react';
import { notificationPath, type Notification, type NotificationKind } from '@sportello/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { useTenant } from '../../lib/tenant';
import classes from './notifications.module.css';

const icons: Record<NotificationKind, typeof IconBell> = {
  agentReply: IconMessage,
  statusChange: IconStatusChange,
  newDocument: IconFileText,
  newInvoice: IconFileInvoice,
  signatureRequest: IconSignature,
};

/** One notification as a link to what it is about; opening it marks it read. */
export function NotificationItem({
  item,
  onOpen,
}: {
  item: Notification;
  onOpen: (n: Notification) => void;
}) {
  const { t } = useTranslation();
  const { company, contactId } = useTenant();
  const Icon = icons[item.kind];
  return (
    <UnstyledButton
      component={Link}
      to={notificationPath(item, company, contactId)}
      onClick={() => onOpen(item)}
      className={classes.item}
      data-unread={!item.read || undefined}
      data-testid="notification-item"
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Icon size={20} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
        <Stack gap={0} miw={0}>
          <Text size="sm" fw={item.read ? 400 : 700}>
            {t(`notifications.kinds.${item.kind}`, { title: item.title, detail: item.detail ?? '' })}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(item.createdAt)}
            {!item.read && <span className={classes.srOnly}> · {t('notifications.unreadMark')}</span>}
          </Text>
        </Stack>
      </Group>
    </UnstyledButton>
  );
}
