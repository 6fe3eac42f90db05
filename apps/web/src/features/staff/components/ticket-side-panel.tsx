import { useState, type RefObject } from 'react';
import {
  Button,
  Group,
  Paper,
  Select,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import type { StaffTicketDetail, StaffTicketUpdate, TicketPriority } from '@sportello/contracts';
import {
  NEXT_ACTIVITY_MAX,
  TICKET_TAG_NAME_MAX,
  TICKET_TAGS_MAX,
} from '@sportello/contracts/staff-ticket-limits';
import { ticketPriorities } from '@sportello/contracts/staff-views';
import { errorText } from '../../../lib/error-text';
import { useDeskOptions } from '../api/options';
import { useUpdateTicket } from '../api/ticket-writes';
import { useStaffT } from '../i18n';

/*
 * The lists are rendered when they open: Mantine's combobox otherwise renders each hidden list with the
 * panel and keeps positioning it (floating-ui, on every scroll and resize of the page), which took a slow
 * phone's main thread for most of a second as a ticket's conversation was drawn.
 */
const COMBOBOX = { withinPortal: true, keepMounted: false } as const;

const NONE = '';

/**
 * What an agent changes on a ticket: step, assignee ("assign to me" too), group, type, and the next
 * planned activity. A pick is saved at once; the answer is the ticket as it now is.
 */
export function TicketSidePanel({
  ticket,
  company,
  assigneeRef,
}: {
  ticket: StaffTicketDetail;
  company: string;
  /** The assignee picker, which `a` focuses. */
  assigneeRef: RefObject<HTMLInputElement | null>;
}) {
  const { t } = useStaffT();
  const options = useDeskOptions(company);
  const update = useUpdateTicket(company);
  const [status, setStatus] = useState<string | null>(null);
  const [next, setNext] = useState(ticket.nextPlannedActivityInfo ?? '');
  const [nextFor, setNextFor] = useState(ticket.nextPlannedActivityInfo);
  // The ticket changed under the field (another agent, or our own save): show its value.
  if (nextFor !== ticket.nextPlannedActivityInfo) {
    setNextFor(ticket.nextPlannedActivityInfo);
    setNext(ticket.nextPlannedActivityInfo ?? '');
  }
  const [due, setDue] = useState(localInput(ticket.dueAt));
  const [dueFor, setDueFor] = useState(ticket.dueAt);
  if (dueFor !== ticket.dueAt) {
    setDueFor(ticket.dueAt);
    setDue(localInput(ticket.dueAt));
  }
  const o = options.data;
  const myAgentId = o?.me.agentId ?? null;

  const save = (change: StaffTicketUpdate, done: string) => {
    setStatus(null);
    update.mutate(
      { ticketId: ticket.id, change },
      {
        onSuccess: () => setStatus(done),
        onError: (e) => setStatus(t('side.saveError', { reason: errorText(e, t) })),
      },
    );
  };
  const idOrNull = (v: string | null) => (v ? Number(v) : null);
  const disabled = !o || update.isPending;

  return (
    <Paper component="aside" withBorder p="md" aria-labelledby="staff-side-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="staff-side-title">
          {t('side.title')}
        </Title>
        <Select
          label={t('inbox.step')}
          data={(o?.steps ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
          value={String(ticket.step.id)}
          allowDeselect={false}
          disabled={disabled}
          onChange={(v) => v && save({ stepId: Number(v) }, t('side.saved'))}
          comboboxProps={COMBOBOX}
          data-testid="side-step"
        />
        <Select
          ref={assigneeRef}
          label={t('inbox.assignee')}
          data={[
            { value: NONE, label: t('inbox.unassigned') },
            ...(o?.agents ?? []).map((a) => ({ value: String(a.id), label: a.displayName })),
          ]}
          value={ticket.assignee ? String(ticket.assignee.id) : NONE}
          allowDeselect={false}
          disabled={disabled}
          onChange={(v) => save({ assigneeId: idOrNull(v) }, t('side.saved'))}
          comboboxProps={COMBOBOX}
          data-testid="side-assignee"
        />
        {myAgentId !== null && ticket.assignee?.id !== myAgentId && (
          <Button
            variant="light"
            size="xs"
            w="fit-content"
            disabled={disabled}
            onClick={() => save({ assigneeId: myAgentId }, t('side.assignedToMe'))}
            data-testid="assign-to-me"
          >
            {t('side.assignToMe')}
          </Button>
        )}
        <Select
          label={t('inbox.group')}
          data={[
            { value: NONE, label: t('side.noGroup') },
            ...(o?.groups ?? []).map((g) => ({ value: String(g.id), label: g.name })),
          ]}
          value={ticket.group ? String(ticket.group.id) : NONE}
          allowDeselect={false}
          disabled={disabled}
          onChange={(v) => save({ groupId: idOrNull(v) }, t('side.saved'))}
          comboboxProps={COMBOBOX}
          data-testid="side-group"
        />
        <Select
          label={t('inbox.type')}
          data={(o?.types ?? []).map((ty) => ({ value: String(ty.id), label: ty.name }))}
          value={String(ticket.type.id)}
          allowDeselect={false}
          disabled={disabled}
          onChange={(v) => v && save({ typeId: Number(v) }, t('side.saved'))}
          comboboxProps={COMBOBOX}
          data-testid="side-type"
        />
        <Select
          label={t('inbox.priority')}
          data={[...ticketPriorities].reverse().map((p) => ({ value: p, label: t(`priority.${p}`) }))}
          value={ticket.priority}
          allowDeselect={false}
          disabled={disabled}
          onChange={(v) => v && save({ priority: v as TicketPriority }, t('side.saved'))}
          comboboxProps={COMBOBOX}
          data-testid="side-priority"
        />
        <TagsInput
          label={t('inbox.tag')}
          data={(o?.ticketTags ?? []).map((g) => g.name)}
          value={ticket.tags.map((g) => g.name)}
          maxTags={TICKET_TAGS_MAX}
          maxLength={TICKET_TAG_NAME_MAX}
          disabled={disabled}
          onChange={(names) => save({ tags: names }, t('side.saved'))}
          comboboxProps={COMBOBOX}
          clearable
          data-testid="side-tags"
        />
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save({ dueAt: due ? new Date(due).toISOString() : null }, t('side.saved'));
          }}
        >
          <Stack gap={6}>
            <TextInput
              type="datetime-local"
              label={t('side.dueAt')}
              value={due}
              onChange={(e) => setDue(e.currentTarget.value)}
              disabled={disabled}
              data-testid="side-due"
            />
            <Group gap="xs">
              <Button
                type="submit"
                variant="default"
                size="xs"
                disabled={disabled || due === localInput(ticket.dueAt)}
              >
                {t('side.saveDue')}
              </Button>
              {ticket.dueAt !== null && (
                <Button
                  variant="subtle"
                  size="xs"
                  disabled={disabled}
                  onClick={() => save({ dueAt: null }, t('side.saved'))}
                >
                  {t('side.clearDue')}
                </Button>
              )}
            </Group>
          </Stack>
        </form>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save({ nextPlannedActivityInfo: next.trim() ? next.trim() : null }, t('side.saved'));
          }}
        >
          <Stack gap={6}>
            <Textarea
              label={t('side.nextActivity')}
              value={next}
              onChange={(e) => setNext(e.currentTarget.value)}
              maxLength={NEXT_ACTIVITY_MAX}
              rows={3}
              disabled={disabled}
            />
            <Button
              type="submit"
              variant="default"
              size="xs"
              w="fit-content"
              disabled={disabled || next.trim() === (ticket.nextPlannedActivityInfo ?? '').trim()}
            >
              {t('side.saveNext')}
            </Button>
          </Stack>
        </form>
        <Text size="sm" role="status" aria-live="polite" data-testid="side-status">
          {status}
        </Text>
      </Stack>
    </Paper>
  );
}

/** An ISO time as a `datetime-local` input holds it: the browser's local wall time, to the minute. */
function localInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
