import { useState } from 'react';
import { Alert, Button, Group, List, Modal, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowMerge } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { StaffSearchAnswer, StaffTicketDetail } from '@sportello/contracts';
import { hoursOf, useTicketTime } from '../api/merge';
import { quickSearchQuery } from '../api/search';
import { useStaffT } from '../i18n';
import classes from './ticket.module.css';

type Target = StaffSearchAnswer['tickets'][number];
const SEARCH_DEBOUNCE_MS = 250;

/**
 * "Merge into…" (merge-panel.tsx): the ticket picker (the desk search, by number or words) and a
 * confirmation that says what will happen.
 */
export default function MergeDialog({
  company,
  ticket,
  pending,
  problem,
  onClose,
  onMerge,
}: {
  company: string;
  ticket: StaffTicketDetail;
  pending: boolean;
  problem: string | null;
  onClose: () => void;
  onMerge: (target: Target) => void;
}) {
  const { t } = useStaffT();
  const [text, setText] = useState('');
  const [term] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const [target, setTarget] = useState<Target | null>(null);
  const search = useQuery({ ...quickSearchQuery(company, term), enabled: term.length > 0 && !target });
  // The time panel beside reads the same answer: the count of what would move comes from its cache.
  const time = useTicketTime(company, ticket.id).data;
  const found = (search.data?.tickets ?? []).filter((x) => x.id !== ticket.id);
  const files = ticket.attachments.length + ticket.comments.reduce((n, c) => n + c.attachments.length, 0);

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('merge.title', { number: ticket.ticketNumber })}
      size="lg"
      closeButtonProps={{ 'aria-label': t('close') }}
      data-testid="merge-dialog"
    >
      {!target ? (
        <Stack gap="sm">
          <TextInput
            label={t('merge.searchLabel')}
            description={t('merge.searchHint')}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            data-autofocus
            data-testid="merge-search"
          />
          {search.isSuccess && found.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('merge.noResults')}
            </Text>
          )}
          <Stack gap={4} role="list" aria-label={t('merge.results')}>
            {found.map((x) => (
              <UnstyledButton
                key={x.id}
                role="listitem"
                className={classes.mergeOption}
                onClick={() => setTarget(x)}
                data-testid="merge-option"
              >
                <Text size="sm" fw={600}>
                  {x.ticketNumber} {x.title}
                </Text>
                <Text size="xs" c="dimmed">
                  {[x.company.name, x.contact?.referentName, x.step.name].filter(Boolean).join(' · ')}
                </Text>
              </UnstyledButton>
            ))}
          </Stack>
        </Stack>
      ) : (
        <Stack gap="sm" data-testid="merge-confirm">
          <Text size="sm" fw={700}>
            {t('merge.confirmTitle', { source: ticket.ticketNumber, target: target.ticketNumber })}
          </Text>
          <Text size="sm">
            {target.ticketNumber} {target.title}
          </Text>
          <List size="sm" spacing={4}>
            <List.Item>{t('merge.whatMoves', { messages: ticket.comments.length, files })}</List.Item>
            {time && (
              <List.Item data-testid="merge-time">
                {time.entryCount === 0
                  ? t('merge.whatTimeNone')
                  : t('merge.whatTime', { count: time.entryCount, time: hoursOf(time.totalMinutes) })}
              </List.Item>
            )}
            <List.Item>{t('merge.whatFollowers', { target: target.ticketNumber })}</List.Item>
            <List.Item>{t('merge.whatCloses', { source: ticket.ticketNumber })}</List.Item>
            <List.Item>{t('merge.whatMail')}</List.Item>
            <List.Item>{t('merge.whatUndo')}</List.Item>
          </List>
          {problem && (
            <Alert color="red" variant="light" role="alert">
              {problem}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setTarget(null)} disabled={pending}>
              {t('merge.back')}
            </Button>
            <Button
              onClick={() => onMerge(target)}
              loading={pending}
              leftSection={<IconArrowMerge size={16} aria-hidden />}
              data-testid="merge-confirm-button"
            >
              {t('merge.confirm', { target: target.ticketNumber })}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
