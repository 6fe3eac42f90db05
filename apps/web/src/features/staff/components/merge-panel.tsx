import { useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Group,
  List,
  Modal,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowMerge, IconArrowBackUp } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { StaffSearchAnswer, StaffTicketDetail } from '@sportello/contracts';
import { Link } from 'react-router';
import { ApiRequestError } from '../../../lib/api-client';
import { errorText } from '../../../lib/error-text';
import { formatDateTime } from '../../../lib/format';
import { useMerge, useMergeState, useTicketTime } from '../api/merge';
import { quickSearchQuery } from '../api/search';
import { useStaffT } from '../i18n';
import { staffTicketPath } from '../staff-paths';
import classes from './ticket.module.css';
import { hoursOf } from './time-panel';

type Target = StaffSearchAnswer['tickets'][number];
const SEARCH_DEBOUNCE_MS = 250;

/**
 * Merging (issue 28): the banner of a merged ticket (where it went, and the admin's undo within a day),
 * the tickets merged into this one, and "Merge into…": a ticket picker (the desk search, by number or
 * words) and a confirmation that says what will happen.
 */
export function MergePanel({ company, ticket }: { company: string; ticket: StaffTicketDetail }) {
  const { t } = useStaffT();
  const state = useMergeState(company, ticket.id);
  const merge = useMerge(company, ticket.id);
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const reason = (e: unknown) => {
    const code = e instanceof ApiRequestError ? e.code : undefined;
    return code && t(`merge.errors.${code}`, { defaultValue: '' })
      ? t(`merge.errors.${code}`)
      : errorText(e, t);
  };
  const into = state.data?.mergedInto ?? null;
  const from = state.data?.mergedFrom ?? [];

  const onUndo = () => {
    setProblem(null);
    merge.mutate(
      { undo: true },
      {
        onSuccess: (a) => setNotice(t('merge.undone', { ...a.moved, count: a.moved.timeEntries })),
        onError: (e) => setProblem(t('merge.failed', { reason: reason(e) })),
      },
    );
  };

  return (
    <Stack gap="xs" data-testid="merge-panel">
      {into && (
        <Alert
          color="blue"
          variant="light"
          icon={<IconArrowMerge size={18} aria-hidden />}
          data-testid="merged-banner"
        >
          <Stack gap={6}>
            <Text size="sm">
              {t('merge.mergedInto', { by: into.mergedBy, at: formatDateTime(into.mergedAt) })}{' '}
              {/* In the text's colour, underlined: the portal's colour is not 4.5:1 on the blue tint. */}
              <Anchor
                component={Link}
                to={staffTicketPath(company, into.ticket.id)}
                fw={700}
                c="inherit"
                underline="always"
              >
                {into.ticket.ticketNumber} {into.ticket.title}
              </Anchor>
            </Text>
            {into.canUndo && (
              <Group gap="xs">
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconArrowBackUp size={14} aria-hidden />}
                  loading={merge.isPending}
                  onClick={onUndo}
                  data-testid="merge-undo"
                >
                  {t('merge.undo')}
                </Button>
                <Text size="xs" c="dimmed">
                  {t('merge.undoUntil', { at: formatDateTime(into.undoUntil) })}
                </Text>
              </Group>
            )}
          </Stack>
        </Alert>
      )}
      {from.length > 0 && (
        <Text size="sm" data-testid="merged-from">
          {t('merge.mergedFrom')}{' '}
          {from.map((f, i) => (
            <span key={f.ticket.id}>
              {i > 0 && ', '}
              <Anchor component={Link} to={staffTicketPath(company, f.ticket.id)}>
                {f.ticket.ticketNumber}
              </Anchor>
            </span>
          ))}
        </Text>
      )}
      {state.isSuccess && !into && (
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            leftSection={<IconArrowMerge size={14} aria-hidden />}
            onClick={() => {
              setProblem(null);
              setNotice(null);
              setOpen(true);
            }}
            data-testid="merge-open"
          >
            {t('merge.open')}
          </Button>
        </Group>
      )}
      {problem && (
        <Alert color="red" variant="light" role="alert">
          {problem}
        </Alert>
      )}
      <Text size="sm" role="status" aria-live="polite" data-testid="merge-notice">
        {notice}
      </Text>
      {open && (
        <MergeDialog
          company={company}
          ticket={ticket}
          pending={merge.isPending}
          problem={problem}
          onClose={() => setOpen(false)}
          onMerge={(target) => {
            setProblem(null);
            merge.mutate(
              { targetId: target.id },
              {
                onSuccess: (a) => {
                  setOpen(false);
                  setNotice(
                    t('merge.done', {
                      number: a.target.ticketNumber,
                      ...a.moved,
                      count: a.moved.timeEntries,
                    }),
                  );
                },
                onError: (e) => setProblem(t('merge.failed', { reason: reason(e) })),
              },
            );
          }}
        />
      )}
    </Stack>
  );
}

function MergeDialog({
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
