import { useContext, useState } from 'react';
import {
  ActionIcon,
  Button,
  Group,
  Menu,
  Modal,
  Stack,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconDots, IconPlus, IconUsers } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  SAVED_VIEW_NAME_MAX,
  type SavedView,
  type SavedViewQuery,
  type SavedViewUpdate,
} from '@sportello/contracts';
import { staffSavedViewRoutes } from '@sportello/contracts/route-refs';
import { Link } from 'react-router';
import { call } from '../../../lib/api-client';
import { errorText } from '../../../lib/error-text';
import { formatNumber } from '../../../lib/format';
import { savedViewsQuery } from '../api/saved-views';
import { DeskContext } from '../desk-context';
import { useStaffT } from '../i18n';
import { searchFromFilters, type InboxFilters } from '../inbox-url';

/** What a view keeps of the inbox's state: everything but the search words. */
export function savedQueryOf(f: InboxFilters): SavedViewQuery {
  const { q: _words, ...rest } = f;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as SavedViewQuery;
}

/** The inbox address of a saved view. */
export const savedViewSearch = (query: SavedView['query']) =>
  searchFromFilters(query as unknown as InboxFilters) || '?';

type Editing = { mode: 'create' } | { mode: 'rename' | 'delete'; view: SavedView } | null;

/**
 * The inbox's saved views (issue 28): the agent's own and the portal's shared ones, each a link with
 * its count like the fixed views; "Save view" keeps the current filters and order; the current view's
 * menu renames it, saves the current filters in it, deletes it, and (a portal admin) shares it.
 */
export function SavedViews({ company, filters }: { company: string; filters: InboxFilters }) {
  const { t, i18n } = useStaffT();
  // Shown once the agent is known (the inbox draws before): sharing is a portal admin's.
  const isAdmin = useContext(DeskContext)?.portal.role === 'admin';
  const qc = useQueryClient();
  const key = savedViewsQuery(company).queryKey;
  const views = useQuery(savedViewsQuery(company));
  const [editing, setEditing] = useState<Editing>(null);
  const [name, setName] = useState('');
  const refresh = () => void qc.invalidateQueries({ queryKey: key });

  const create = useMutation({
    mutationFn: (n: string) =>
      call(staffSavedViewRoutes.create, {
        params: { company },
        body: { name: n, query: savedQueryOf(filters) },
      }),
    onSuccess: () => {
      setEditing(null);
      refresh();
    },
  });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: number; body: SavedViewUpdate }) =>
      call(staffSavedViewRoutes.update, { params: { company, viewid: id }, body }),
    onSuccess: () => {
      setEditing(null);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => call(staffSavedViewRoutes.remove, { params: { company, viewid: id } }),
    onSuccess: () => {
      setEditing(null);
      refresh();
    },
  });
  const share = useMutation({
    mutationFn: ({ id, shared }: { id: number; shared: boolean }) =>
      call(staffSavedViewRoutes.share, { params: { company, viewid: id }, body: { shared } }),
    onSuccess: refresh,
  });

  const current = savedViewSearch(savedQueryOf(filters) as SavedView['query']);
  const cap = views.data?.countCap ?? Infinity;
  const countText = (n: number) =>
    n >= cap ? `${formatNumber(cap, i18n.language)}+` : formatNumber(n, i18n.language);
  const items = views.data?.items ?? [];
  const pending = create.isPending || update.isPending || remove.isPending;
  const failure = create.error ?? update.error ?? remove.error;
  const startEditing = (next: Editing) => {
    create.reset();
    update.reset();
    remove.reset();
    setName(next && next.mode !== 'create' ? next.view.name : '');
    setEditing(next);
  };

  return (
    <>
      <Group
        gap={6}
        wrap="wrap"
        mih={28}
        component="nav"
        aria-label={t('savedViews.label')}
        data-testid="saved-views"
      >
        {items.map((v) => {
          const isCurrent = savedViewSearch(v.query) === current;
          const canChange = v.mine || (isAdmin && v.shared);
          return (
            <Group key={v.id} gap={0} wrap="nowrap">
              <Button
                component={Link}
                to={savedViewSearch(v.query)}
                variant={isCurrent ? 'filled' : 'light'}
                size="compact-sm"
                aria-current={isCurrent ? 'page' : undefined}
                data-testid={`saved-view-${v.id}`}
                title={v.shared && !v.mine ? t('savedViews.sharedBy', { name: v.owner }) : undefined}
                leftSection={
                  v.shared ? <IconUsers size={14} aria-label={t('savedViews.shared')} /> : undefined
                }
                rightSection={<span data-testid={`saved-count-${v.id}`}>{countText(v.count)}</span>}
              >
                {v.name}
              </Button>
              {isCurrent && canChange && (
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon
                      variant="subtle"
                      size="md"
                      aria-label={t('savedViews.actions', { name: v.name })}
                      data-testid={`saved-view-menu-${v.id}`}
                    >
                      <IconDots size={16} aria-hidden />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item onClick={() => startEditing({ mode: 'rename', view: v })}>
                      {t('savedViews.rename')}
                    </Menu.Item>
                    {isAdmin && (
                      <Menu.Item onClick={() => share.mutate({ id: v.id, shared: !v.shared })}>
                        {v.shared ? t('savedViews.unshare') : t('savedViews.share')}
                      </Menu.Item>
                    )}
                    <Menu.Item color="red" onClick={() => startEditing({ mode: 'delete', view: v })}>
                      {t('savedViews.delete')}
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              )}
            </Group>
          );
        })}
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => startEditing({ mode: 'create' })}
          data-testid="save-view"
        >
          {t('savedViews.save')}
        </Button>
      </Group>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={
          editing?.mode === 'rename'
            ? t('savedViews.renameTitle')
            : editing?.mode === 'delete'
              ? t('savedViews.delete')
              : t('savedViews.saveTitle')
        }
        closeButtonProps={{ 'aria-label': t('close') }}
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!editing) return;
            if (editing.mode === 'delete') remove.mutate(editing.view.id);
            else if (editing.mode === 'rename') update.mutate({ id: editing.view.id, body: { name } });
            else create.mutate(name);
          }}
        >
          <Stack gap="sm">
            {editing?.mode === 'delete' ? (
              <Text size="sm">{t('savedViews.deleteConfirm', { name: editing.view.name })}</Text>
            ) : (
              <TextInput
                label={t('savedViews.name')}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                maxLength={SAVED_VIEW_NAME_MAX}
                required
                data-autofocus
                data-testid="saved-view-name"
              />
            )}
            {failure && (
              <Text c="red" size="sm" role="alert">
                {errorText(failure, t)}
              </Text>
            )}
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={() => setEditing(null)}>
                {t('savedViews.cancel')}
              </Button>
              <Button
                type="submit"
                loading={pending}
                color={editing?.mode === 'delete' ? 'red' : undefined}
                disabled={editing?.mode !== 'delete' && name.trim() === ''}
                data-testid="saved-view-submit"
              >
                {editing?.mode === 'delete' ? t('savedViews.delete') : t('savedViews.create')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <VisuallyHidden aria-live="polite">{create.isSuccess ? t('savedViews.saved') : ''}</VisuallyHidden>
    </>
  );
}
