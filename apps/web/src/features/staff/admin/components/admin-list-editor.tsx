import { useState, type ReactNode } from 'react';
import {
  ActionIcon,
  Button,
  Group,
  Stack,
  Table,
  Title,
  VisuallyHidden,
  type TableTdProps,
  type TableThProps,
} from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { ConfirmRemove } from '../confirm-remove';
import { QueryStates } from '../query-states';
import { TableScroll } from '../table-scroll';

/** What a row's cells can do: open the row's editor, or ask to remove it. */
export interface RowActions {
  edit: () => void;
  remove: () => void;
}

/**
 * One column of the list: its heading (none: an empty heading cell) and what a row shows in it (with
 * what it can do, and the whole answer the row came in).
 */
export interface AdminColumn<T, D = unknown> {
  header?: ReactNode;
  th?: TableThProps;
  td?: TableTdProps;
  cell: (row: T, act: RowActions, data: D) => ReactNode;
}

/**
 * The last column of a list whose rows are edited and removed by two icons: its heading hidden but read,
 * each icon named after its row (`edit(row)`, `remove(row)`: "Edit …", "Remove …").
 */
export function iconActionsColumn<T>(labels: {
  heading: string;
  edit: (row: T) => string;
  remove: (row: T) => string;
}): AdminColumn<T> {
  return {
    // Positioned: the hidden text stays inside the table's scroll region on a phone.
    header: <VisuallyHidden>{labels.heading}</VisuallyHidden>,
    th: { pos: 'relative' },
    cell: (row, act) => (
      <Group gap={4} wrap="nowrap" justify="flex-end">
        <ActionIcon variant="subtle" aria-label={labels.edit(row)} onClick={act.edit}>
          <IconPencil size={16} aria-hidden />
        </ActionIcon>
        <ActionIcon variant="subtle" color="red" aria-label={labels.remove(row)} onClick={act.remove}>
          <IconTrash size={16} aria-hidden />
        </ActionIcon>
      </Group>
    ),
  };
}

/** The confirmation before a row goes (ConfirmRemove's words, of that row). */
export interface AdminRemoval<T> {
  title: (row: T) => string;
  text: (row: T) => string;
  action: string;
  cancel: string;
  remove: (row: T) => Promise<unknown>;
  explain?: (error: unknown, row: T) => string | null;
}

/**
 * The list of an administration section: a heading with the New button, the rows in a table that
 * scrolls sideways on a phone, the loading, error and empty states, the editor of a new or an existing
 * row and the confirmation before a row is removed. The section says what the rows are (`rows`, from
 * the query's answer), its columns, and its editor: `editor(row, done, data)` (row null: a new one),
 * drawn instead of the list; `editAs` 'row': in the row's place, the table kept (new rows then come
 * from a form in `footer`); 'dialog': after the list, the editor drawing its own modal. `footer` comes
 * after the table, such as an add form kept open.
 */
export function AdminListEditor<D, T>({
  query,
  rows,
  rowKey,
  columns,
  minWidth,
  empty,
  title,
  titleId,
  newLabel,
  newDisabled,
  editor,
  editAs = 'page',
  removal,
  rowProps,
  highlightOnHover = true,
  before,
  footer,
  ...section
}: {
  query: UseQueryResult<D>;
  rows: (data: D) => T[];
  rowKey: (row: T) => string | number;
  columns: AdminColumn<T, D>[];
  minWidth: number;
  empty: string;
  /** The list's heading (h2), beside the New button. */
  title?: string;
  titleId?: string;
  /** The New button's words; none: no New button. */
  newLabel?: string;
  newDisabled?: (data: D | undefined) => boolean;
  editor?: (row: T | null, done: () => void, data: D) => ReactNode;
  editAs?: 'page' | 'row' | 'dialog';
  removal?: AdminRemoval<T>;
  rowProps?: (row: T) => Record<string, unknown>;
  highlightOnHover?: boolean;
  /** Shown between the heading and the list (a hint, a filter). */
  before?: ReactNode;
  footer?: ReactNode;
  'data-testid'?: string;
  'aria-labelledby'?: string;
  component?: 'section';
}) {
  const [editing, setEditing] = useState<{ row: T | null } | null>(null);
  const [removing, setRemoving] = useState<T | null>(null);
  const done = () => setEditing(null);
  if (editing && editAs === 'page' && editor && query.data !== undefined)
    return <>{editor(editing.row, done, query.data)}</>;
  const actions = (row: T): RowActions => ({
    edit: () => setEditing({ row }),
    remove: () => setRemoving(row),
  });
  const newButton = newLabel ? (
    <Button
      leftSection={<IconPlus size={16} aria-hidden />}
      onClick={() => setEditing({ row: null })}
      disabled={newDisabled?.(query.data)}
    >
      {newLabel}
    </Button>
  ) : null;
  const isEditing = (row: T) => editing?.row != null && rowKey(editing.row) === rowKey(row);
  return (
    <Stack gap="sm" {...section}>
      {title ? (
        <Group justify="space-between">
          <Title order={2} size="h3" id={titleId}>
            {title}
          </Title>
          {newButton}
        </Group>
      ) : (
        newButton && <Group justify="flex-end">{newButton}</Group>
      )}
      {before}
      <QueryStates query={query} isEmpty={(data) => rows(data).length === 0} empty={empty}>
        {(data) => (
          <TableScroll minWidth={minWidth}>
            <Table verticalSpacing="xs" highlightOnHover={highlightOnHover}>
              <Table.Thead>
                <Table.Tr>
                  {columns.map((c, i) => (
                    <Table.Th key={i} {...c.th}>
                      {c.header}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows(data).map((row) =>
                  editAs === 'row' && editor && isEditing(row) ? (
                    <Table.Tr key={rowKey(row)}>
                      <Table.Td colSpan={columns.length}>{editor(row, done, data)}</Table.Td>
                    </Table.Tr>
                  ) : (
                    <Table.Tr key={rowKey(row)} {...rowProps?.(row)}>
                      {columns.map((c, i) => (
                        <Table.Td key={i} {...c.td}>
                          {c.cell(row, actions(row), data)}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ),
                )}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </QueryStates>
      {footer}
      {editing && editAs === 'dialog' && editor && query.data !== undefined
        ? editor(editing.row, done, query.data)
        : null}
      {removal && removing !== null && (
        <ConfirmRemove
          title={removal.title(removing)}
          text={removal.text(removing)}
          action={removal.action}
          cancel={removal.cancel}
          onClose={() => setRemoving(null)}
          remove={() => removal.remove(removing)}
          explain={removal.explain && ((e) => removal.explain!(e, removing))}
        />
      )}
    </Stack>
  );
}
