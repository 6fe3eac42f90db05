import { useEffect, useId, useRef, useState } from 'react';
import {
  Alert,
  Badge,
  CloseButton,
  Group,
  Kbd,
  Loader,
  Modal,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { MacroActions, RenderedMacro, StaffOptions } from '@sportello/contracts';
import { errorText } from '../../../lib/error-text';
import { renderMacro, useMacros } from '../api/macros';
import { useStaffT } from '../i18n';
import classes from './macro-picker.module.css';

type T = ReturnType<typeof useStaffT>['t'];

/** What a macro will change, in words, one entry per change (its key to remove it). */
export function describeActions(
  actions: MacroActions,
  options: StaffOptions | undefined,
  t: T,
): { key: keyof MacroActions; text: string }[] {
  const out: { key: keyof MacroActions; text: string }[] = [];
  const nameOf = <X extends { id: number }>(list: X[] | undefined, id: number, name: (x: X) => string) => {
    const found = list?.find((x) => x.id === id);
    return found ? name(found) : `#${id}`;
  };
  if (actions.stepId !== undefined)
    out.push({
      key: 'stepId',
      text: t('macros.action.step', { name: nameOf(options?.steps, actions.stepId, (s) => s.name) }),
    });
  if (actions.assigneeId !== undefined)
    out.push({
      key: 'assigneeId',
      text:
        actions.assigneeId === null
          ? t('macros.action.unassign')
          : t('macros.action.assignee', {
              name: nameOf(options?.agents, actions.assigneeId, (a) => a.displayName),
            }),
    });
  if (actions.groupId !== undefined)
    out.push({
      key: 'groupId',
      text:
        actions.groupId === null
          ? t('macros.action.noGroup')
          : t('macros.action.group', { name: nameOf(options?.groups, actions.groupId, (g) => g.name) }),
    });
  if (actions.priority !== undefined)
    out.push({
      key: 'priority',
      text: t('macros.action.priority', { name: t(`priority.${actions.priority}`) }),
    });
  if (actions.tags !== undefined)
    out.push({ key: 'tags', text: t('macros.action.tags', { names: actions.tags.join(', ') || '—' }) });
  return out;
}

/**
 * The macro picker (issue 28 item 6): a search over the portal's shared macros and the agent's own,
 * moved through with the arrow keys, Enter or a click to choose. The chosen macro comes back filled for
 * this ticket by the server (the requester's language, placeholders replaced).
 */
export function MacroPicker({
  company,
  ticketId,
  opened,
  onClose,
  onPick,
}: {
  company: string;
  ticketId: number;
  opened: boolean;
  onClose: () => void;
  onPick: (macro: RenderedMacro) => void;
}) {
  const { t } = useStaffT();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('macros.pickerTitle')}
      closeButtonProps={{ 'aria-label': t('close') }}
      size="lg"
    >
      <PickerBody company={company} ticketId={ticketId} onClose={onClose} onPick={onPick} />
    </Modal>
  );
}

/** The picker's search and list: mounted with each opening, so it starts afresh. */
function PickerBody({
  company,
  ticketId,
  onClose,
  onPick,
}: {
  company: string;
  ticketId: number;
  onClose: () => void;
  onPick: (macro: RenderedMacro) => void;
}) {
  const { t } = useStaffT();
  const [q, setQ] = useState('');
  const [active, setActive] = useState(0);
  const [picking, setPicking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const list = useMacros(company, q.trim(), 'all');
  const items = list.data?.items ?? [];
  const listId = useId();

  const choose = async (index: number) => {
    const m = items[index];
    if (!m || picking) return;
    setPicking(true);
    setProblem(null);
    try {
      onPick(await renderMacro(company, ticketId, m.id));
      onClose();
    } catch (e) {
      setProblem(errorText(e, t));
    } finally {
      setPicking(false);
    }
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((i) => Math.min(i + 1, Math.max(items.length - 1, 0)));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      void choose(active);
    }
  };

  return (
    <Stack gap="sm">
      <TextInput
        data-autofocus
        label={t('macros.search')}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={list.isFetching || picking ? <Loader size="xs" /> : null}
        value={q}
        onChange={(e) => {
          setQ(e.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        role="combobox"
        aria-expanded
        aria-controls={listId}
        aria-activedescendant={items[active] ? `${listId}-${items[active].id}` : undefined}
        data-testid="macro-search"
      />
      {problem && (
        <Alert color="red" variant="light" role="alert">
          {problem}
        </Alert>
      )}
      {list.isSuccess && items.length === 0 && (
        <Text size="sm" c="dimmed">
          {q.trim() ? t('macros.noMatch') : t('macros.none')}
        </Text>
      )}
      <div role="listbox" id={listId} aria-label={t('macros.list')} className={classes.list}>
        {items.map((m, i) => (
          <UnstyledButton
            key={m.id}
            id={`${listId}-${m.id}`}
            role="option"
            aria-selected={i === active}
            className={classes.option}
            onMouseEnter={() => setActive(i)}
            onClick={() => void choose(i)}
            tabIndex={-1}
            data-testid="macro-option"
          >
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm" fw={600} truncate>
                {m.name}
              </Text>
              <Badge size="sm" variant="light" color={m.shared ? 'blue' : 'gray'}>
                {m.shared ? t('macros.shared') : t('macros.mine')}
              </Badge>
            </Group>
          </UnstyledButton>
        ))}
      </div>
      <Text size="xs" c="dimmed">
        {t('macros.pickerHint')}
      </Text>
    </Stack>
  );
}

/**
 * The changes a chosen macro will make when the reply is sent, each with a button that drops it, and
 * the button (and shortcut, Alt+M or `m`) that opens the picker.
 */
export function MacroActionsBar({
  actions,
  options,
  onRemove,
}: {
  actions: MacroActions;
  options: StaffOptions | undefined;
  onRemove: (key: keyof MacroActions) => void;
}) {
  const { t } = useStaffT();
  const described = describeActions(actions, options, t);
  if (described.length === 0) return null;
  return (
    <Stack gap={4} data-testid="macro-actions">
      <Text size="sm" fw={600}>
        {t('macros.onSend')}
      </Text>
      <Group gap={6}>
        {described.map((d) => (
          <Badge
            key={d.key}
            variant="light"
            size="lg"
            tt="none"
            rightSection={
              <CloseButton
                size="xs"
                aria-label={t('macros.removeAction', { action: d.text })}
                onClick={() => onRemove(d.key)}
              />
            }
          >
            {d.text}
          </Badge>
        ))}
      </Group>
    </Stack>
  );
}

export function MacroShortcutHint() {
  const { t } = useStaffT();
  return (
    <Text size="xs" c="dimmed">
      {t('macros.shortcut')} <Kbd>Alt</Kbd> + <Kbd>M</Kbd>
    </Text>
  );
}

/**
 * Alt+M opens the picker wherever the focus is on the ticket's page, the reply editor included (a
 * single key cannot work there: it is typed). By the key's place (`code`), so a Mac's Option+M (µ)
 * works too. Listed with the desk's shortcuts (shortcuts-help.tsx).
 */
export function useMacroShortcut(open: () => void): void {
  const current = useRef(open);
  useEffect(() => {
    current.current = open;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || e.code !== 'KeyM') return;
      e.preventDefault();
      current.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
