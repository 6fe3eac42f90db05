import { lazy, Suspense, useState } from 'react';
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconArrowMerge, IconArrowBackUp } from '@tabler/icons-react';
import type { StaffTicketDetail } from '@sportello/contracts';
import { Link } from 'react-router';
import { ApiRequestError } from '../../../lib/api-client';
import { errorText } from '../../../lib/error-text';
import { afterContent } from '../../../lib/first-content';
import { formatDateTime } from '../../../lib/format';
import { useMerge, useMergeState } from '../api/merge';
import { useStaffT } from '../i18n';
import { staffTicketPath } from '../staff-paths';

/*
 * The dialog (a Modal with its search) in a chunk of its own: the merge line shows with the ticket, above
 * its conversation, and the dialog's code would come before it. Fetched once the conversation is shown.
 */
const loadDialog = () => import('./merge-dialog');
void afterContent()
  .then(loadDialog)
  .catch(() => {});
const MergeDialog = lazy(loadDialog);

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
        <Suspense fallback={null}>
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
        </Suspense>
      )}
    </Stack>
  );
}
