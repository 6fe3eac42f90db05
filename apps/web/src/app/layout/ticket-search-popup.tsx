import { useRef, useState, type KeyboardEvent } from 'react';
import { Badge, Box, Group, Modal, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { myTicketsQuery } from '../../features/tickets/api/my-tickets';
import { formatDate } from '../../lib/format';
import { useTenant } from '../../lib/tenant';
import { ListEmpty, ListError, ListLoading } from '../../ui/list-states';
import { filterTicketsByTitle, SEARCH_DEBOUNCE_MS } from './ticket-search-filter';
import classes from './shell.module.css';

/** The search popup: a text box and my tickets whose title matches, each a link to the ticket. */
export default function TicketSearchPopup({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={isOpen}
      onClose={onClose}
      title={t('layout.searchTickets')}
      size={800}
      styles={{ content: { maxHeight: 'min(600px, calc(100dvh - 2 * var(--modal-y-offset)))' } }}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {isOpen && <SearchBody onPick={onClose} />}
    </Modal>
  );
}

function SearchBody({ onPick }: { onPick: () => void }) {
  const { t } = useTranslation();
  const { company, contactId, basePath } = useTenant();
  const [text, setText] = useState('');
  const [debounced] = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  // `GET …/tickets` without a query (A7): all my tickets, filtered here by title. Same cache entry as an
  // unfiltered tickets list, so a new ticket shows up here as soon as that list is invalidated.
  const tickets = useQuery(myTicketsQuery(company, contactId, {}));
  const results = tickets.data ? filterTicketsByTitle(tickets.data, debounced) : [];
  const listRef = useRef<HTMLUListElement>(null);

  // Arrow keys move between the input and the rows, as in a command palette.
  const moveFocus = (e: KeyboardEvent, from: number) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const rows = Array.from(listRef.current?.querySelectorAll<HTMLElement>('[data-search-result]') ?? []);
    if (rows.length === 0) return;
    e.preventDefault();
    const next = e.key === 'ArrowDown' ? from + 1 : from - 1;
    if (next < 0) document.getElementById('ticket-search-input')?.focus();
    else rows[Math.min(next, rows.length - 1)]?.focus();
  };

  return (
    <>
      <TextInput
        id="ticket-search-input"
        data-autofocus
        label={t('layout.searchLabel')}
        placeholder={t('layout.searchPlaceholder')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => moveFocus(e, -1)}
        autoComplete="off"
      />
      <Box mt="sm">
        {tickets.isPending ? (
          <ListLoading rows={3} />
        ) : tickets.isError ? (
          <ListError onRetry={() => void tickets.refetch()} />
        ) : results.length === 0 ? (
          <ListEmpty />
        ) : (
          <ul
            ref={listRef}
            style={{ listStyle: 'none', margin: 0, padding: 0 }}
            aria-label={t('layout.searchTickets')}
          >
            {results.map((ticket, i) => (
              <li key={ticket.id}>
                <UnstyledButton
                  component={Link}
                  to={`${basePath}/tickets/${ticket.id}`}
                  onClick={onPick}
                  onKeyDown={(e: KeyboardEvent) => moveFocus(e, i)}
                  data-search-result
                  display="block"
                  w="100%"
                  p="xs"
                  style={{ borderRadius: 4 }}
                  className={classes.searchRow}
                >
                  <Group gap="xs" wrap="nowrap" justify="space-between">
                    <Group gap="xs" wrap="nowrap" miw={0}>
                      {ticket.internalAnnualProgressive > 0 && (
                        <Badge variant="light" radius="sm" style={{ flexShrink: 0 }}>
                          {ticket.ticketNumber}
                        </Badge>
                      )}
                      <Text truncate fw={500}>
                        {ticket.title}
                      </Text>
                    </Group>
                    <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
                      {ticket.taskStatus.step.name} · {formatDate(ticket.createdOn)}
                    </Text>
                  </Group>
                </UnstyledButton>
              </li>
            ))}
          </ul>
        )}
      </Box>
    </>
  );
}
