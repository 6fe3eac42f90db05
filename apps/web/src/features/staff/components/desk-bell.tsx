import { useEffect } from 'react';
import {
  ActionIcon,
  Box,
  Button,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBell } from '@tabler/icons-react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StaffMarkReadRequest, StaffNotification } from '@sportello/contracts';
import { staffBellRoutes } from '@sportello/contracts/route-refs';
import { useNavigate } from 'react-router';
import { call } from '../../../lib/api-client';
import { errorText } from '../../../lib/error-text';
import { formatDateTime } from '../../../lib/format';
import { ListError, ListLoading } from '../../../ui/list-states';
import { bellCountQuery, bellKeys, bellListQuery } from '../api/bell';
import { useUnreadQuery } from '../api/unread';
import { useStaffT } from '../i18n';
import { staffTicketPath } from '../staff-paths';
import classes from '../staff.module.css';

/** "99+" beyond 99: the count stops at 100 on the server. */
export const bellCountText = (n: number) => (n > 99 ? '99+' : String(n));

/**
 * The desk's bell (issue 28): the agent's unread count in the header and, opened, their notices
 * newest first, each a link to its ticket (following one marks it read), "mark all read" and older
 * ones page by page. The count follows the desk's long-poll (a change of tickets asks for it again)
 * and its own poll of a cheap endpoint, for what changes no ticket.
 */
export function DeskBell({ company }: { company: string }) {
  const { t } = useStaffT();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [opened, { toggle, close }] = useDisclosure(false);
  const count = useQuery(bellCountQuery(company));
  const list = useInfiniteQuery({ ...bellListQuery(company), enabled: opened });
  const version = useUnreadQuery(company).data?.version;
  useEffect(() => {
    if (version !== undefined) void qc.invalidateQueries({ queryKey: bellKeys.all(company) });
  }, [version, company, qc]);

  const mark = useMutation({
    mutationFn: (body: StaffMarkReadRequest) => call(staffBellRoutes.markRead, { params: { company }, body }),
    onSuccess: (answer) => {
      qc.setQueryData(bellKeys.count(company), answer);
      void qc.invalidateQueries({ queryKey: bellKeys.list(company) });
    },
  });
  const unread = count.data?.unread ?? 0;
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];

  const open = (n: StaffNotification) => {
    if (!n.read) mark.mutate({ ids: [n.id] });
    close();
    void navigate(staffTicketPath(company, n.ticketId));
  };

  return (
    <Popover
      opened={opened}
      onChange={(o) => !o && close()}
      position="bottom-end"
      width="min(360px, calc(100vw - 16px))"
      withinPortal
      shadow="md"
      // The target is the Indicator's div: Mantine's aria-haspopup/aria-expanded there are not allowed
      // on a div (axe's aria-allowed-attr); the button inside says aria-expanded itself.
      withRoles={false}
    >
      <Popover.Target>
        <Indicator
          label={bellCountText(unread)}
          size={18}
          disabled={unread === 0}
          color="red"
          offset={4}
          data-testid="bell-count"
        >
          <ActionIcon
            variant="subtle"
            color="currentColor"
            size="lg"
            onClick={toggle}
            aria-label={unread > 0 ? t('bell.openUnread', { count: unread }) : t('bell.open')}
            aria-expanded={opened}
            data-testid="bell"
            style={{ color: 'inherit' }}
          >
            <IconBell size={20} aria-hidden />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown p={0} data-testid="bell-panel">
        <Group justify="space-between" px="sm" py="xs" wrap="nowrap">
          <Text fw={600} size="sm" component="h2" m={0}>
            {t('bell.title')}
          </Text>
          <Button
            size="compact-xs"
            variant="subtle"
            disabled={unread === 0 || mark.isPending}
            onClick={() => mark.mutate({ all: true })}
            data-testid="bell-mark-all"
          >
            {t('bell.markAll')}
          </Button>
        </Group>
        <ScrollArea.Autosize mah="min(70dvh, 480px)" type="auto">
          {list.isPending ? (
            <ListLoading />
          ) : list.isError ? (
            <ListError onRetry={() => void list.refetch()} message={errorText(list.error, t)} />
          ) : items.length === 0 ? (
            <Text size="sm" c="dimmed" px="sm" pb="sm">
              {t('bell.empty')}
            </Text>
          ) : (
            <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
              {items.map((n) => (
                <Box component="li" key={n.id}>
                  <UnstyledButton
                    onClick={() => open(n)}
                    className={classes.bellItem}
                    data-unread={n.read ? undefined : 'true'}
                    data-testid={`bell-item-${n.kind}`}
                  >
                    <Text size="sm" fw={n.read ? 400 : 600} lineClamp={2}>
                      {t(`bell.kind.${n.kind}`, {
                        actor: n.actor || t('bell.someone'),
                        ticket: n.ticketNumber || `#${n.ticketId}`,
                        rating: n.rating ?? '',
                      })}
                    </Text>
                    {n.sla && (
                      <Text size="xs" data-testid="bell-item-sla">
                        {t(n.kind === 'sla_breach' ? 'bell.slaBreach' : 'bell.slaSoon', {
                          target: t(
                            n.sla.target === 'first_response' ? 'sla.firstResponse' : 'sla.resolution',
                          ),
                          at: formatDateTime(n.sla.dueAt),
                        })}
                      </Text>
                    )}
                    <Text size="xs" c="dimmed" lineClamp={1}>
                      {n.title}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {!n.read && (
                        // A span's aria-label is not read (axe's aria-prohibited-attr): hidden words are.
                        <>
                          <span className={classes.bellDot} aria-hidden />
                          <VisuallyHidden>{t('bell.unreadMark')}</VisuallyHidden>
                        </>
                      )}
                      {formatDateTime(n.createdAt)}
                    </Text>
                  </UnstyledButton>
                </Box>
              ))}
            </Stack>
          )}
          {list.hasNextPage && (
            <Group justify="center" py="xs">
              <Button
                size="compact-sm"
                variant="default"
                loading={list.isFetchingNextPage}
                onClick={() => void list.fetchNextPage()}
              >
                {t('bell.more')}
              </Button>
            </Group>
          )}
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}
