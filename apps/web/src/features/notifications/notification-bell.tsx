import {
  Badge,
  Button,
  Divider,
  Group,
  Popover,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBell } from '@tabler/icons-react';
import type { Notification } from '@sportello/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTenant } from '../../lib/tenant';
import { useBell, useMarkRead } from './api/notifications';
import { NotificationItem } from './notification-item';
import classes from './notifications.module.css';

/** The header's bell: unread count (polled), the latest notifications, mark all read, the settings page. */
export function NotificationBell({ className }: { className?: string }) {
  const { t } = useTranslation();
  const { company, contactId, basePath } = useTenant();
  const bell = useBell(company, contactId);
  const markRead = useMarkRead(company, contactId);
  const [isOpen, popover] = useDisclosure(false);
  const unread = bell.data?.unread ?? 0;
  const count = unread > 99 ? '99+' : String(unread);
  const open = (n: Notification) => {
    popover.close();
    if (!n.read) markRead.mutate({ ids: [n.id] });
  };
  return (
    <Popover
      opened={isOpen}
      onChange={popover.toggle}
      position="bottom-end"
      width={360}
      withinPortal
      shadow="md"
    >
      <Popover.Target>
        <UnstyledButton
          className={`${className ?? ''} ${classes.bell}`}
          onClick={popover.toggle}
          aria-label={unread > 0 ? t('notifications.bellUnread', { count: unread }) : t('notifications.bell')}
          aria-haspopup="dialog"
          aria-expanded={isOpen}
          data-testid="notification-bell"
        >
          <IconBell size={20} aria-hidden />
          {unread > 0 && (
            <Badge
              size="xs"
              circle={unread < 10}
              color="red"
              className={classes.count}
              data-testid="bell-count"
            >
              {count}
            </Badge>
          )}
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown p="xs" maw="calc(100vw - 16px)" role="dialog" aria-label={t('notifications.title')}>
        <Group justify="space-between" px={4} pb={4} wrap="nowrap">
          <Text fw={700}>{t('notifications.title')}</Text>
          <Button
            variant="subtle"
            size="compact-sm"
            disabled={unread === 0 || markRead.isPending}
            onClick={() => markRead.mutate({ all: true })}
          >
            {t('notifications.markAllRead')}
          </Button>
        </Group>
        <Divider />
        <ScrollArea.Autosize mah={360} type="auto">
          {bell.data && bell.data.items.length > 0 ? (
            <Stack component="ul" gap={2} className={classes.list} py={4}>
              {bell.data.items.map((n) => (
                <li key={n.id}>
                  <NotificationItem item={n} onOpen={open} />
                </li>
              ))}
            </Stack>
          ) : (
            <Text size="sm" c="dimmed" p="sm">
              {t('notifications.empty')}
            </Text>
          )}
        </ScrollArea.Autosize>
        <Divider />
        <Button
          component={Link}
          to={`${basePath}/notifications`}
          onClick={popover.close}
          variant="subtle"
          fullWidth
          mt={4}
        >
          {t('notifications.settings')}
        </Button>
      </Popover.Dropdown>
    </Popover>
  );
}
