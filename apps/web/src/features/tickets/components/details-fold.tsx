import { useId, useState, type ReactNode } from 'react';
import { Badge, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TicketDetail } from '@sportello/contracts';
import { isClosedTicket } from '../ticket-filters';
import classes from './tickets.module.css';
import { localName } from '../../../lib/local-name';

/**
 * A phone's ticket details: one line with the step, above the conversation, that unfolds the details and
 * the followers. Unfolded on a phone they took a screen and a half before the first message; folded,
 * they are not drawn (and the followers not fetched).
 */
export function DetailsFold({ ticket, children }: { ticket: TicketDetail; children: ReactNode }) {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  const id = useId();
  return (
    <Paper withBorder data-testid="details-fold">
      <UnstyledButton
        className={classes.foldButton}
        aria-expanded={isOpen}
        aria-controls={id}
        onClick={() => setIsOpen((open) => !open)}
      >
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Text fw={600} size="sm">
              {t('tickets.detail.details')}
            </Text>
            <Badge
              variant="light"
              color={isClosedTicket(ticket) ? 'gray' : 'brand'}
              radius="sm"
              tt="none"
              component="span"
              data-testid="fold-step"
            >
              {localName(ticket.taskStatus.step)}
            </Badge>
          </Group>
          <IconChevronDown size={16} aria-hidden className={classes.foldChevron} />
        </Group>
      </UnstyledButton>
      {isOpen && (
        <Stack gap="md" id={id} p="xs" pt={0}>
          {children}
        </Stack>
      )}
    </Paper>
  );
}
