import { useState } from 'react';
import { Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SAVED_VIEW_NAME_MAX, type SavedView } from '@sportello/contracts';
import { staffSavedViewRoutes } from '@sportello/contracts/route-refs';
import { Link } from 'react-router';
import { call } from '../../../../lib/api-client';
import { errorText } from '../../../../lib/error-text';
import { formatNumber } from '../../../../lib/format';
import { usePageTitle } from '../../../../ui/page-title';
import { savedViewsQuery } from '../../api/saved-views';
import { savedViewSearch } from '../../components/saved-views';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { staffPath } from '../../staff-paths';
import { AdminListEditor } from '../components/admin-list-editor';

/**
 * The portal's shared views (issue 28 item 5): what every member sees beside the inbox's views, with
 * who made each and its count; rename, stop sharing, delete. A view is shared from the inbox (the
 * view's menu), where it was saved.
 */
export default function SharedViewsPage() {
  const { t, i18n } = useStaffT();
  const { company } = useDesk();
  const qc = useQueryClient();
  const query = useQuery(savedViewsQuery(company));
  const refresh = () => qc.invalidateQueries({ queryKey: savedViewsQuery(company).queryKey });
  const unshare = useMutation({
    mutationFn: (id: number) =>
      call(staffSavedViewRoutes.share, { params: { company, viewid: id }, body: { shared: false } }),
    onSuccess: refresh,
  });
  usePageTitle(t('admin.sections.sharedViews'));
  const countText = (n: number, cap: number) =>
    n >= cap ? `${formatNumber(cap, i18n.language)}+` : formatNumber(n, i18n.language);
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin.sections.sharedViews')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('savedViews.adminIntro')}
      </Text>
      <AdminListEditor
        query={query}
        rows={(d) => d.items.filter((v) => v.shared)}
        rowKey={(v) => v.id}
        minWidth={560}
        empty={t('savedViews.noneShared')}
        data-testid="shared-views"
        editAs="row"
        columns={[
          {
            header: t('savedViews.name'),
            cell: (v) => (
              <Anchor component={Link} to={`${staffPath(company)}${savedViewSearch(v.query)}`}>
                {v.name}
              </Anchor>
            ),
          },
          { header: t('savedViews.owner'), cell: (v) => v.owner },
          {
            header: t('savedViews.count'),
            cell: (v, _a, d) => countText(v.count, d.countCap),
          },
          {
            cell: (v, act) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Button size="compact-sm" variant="default" onClick={act.edit}>
                  {t('savedViews.rename')}
                </Button>
                <Button
                  size="compact-sm"
                  variant="default"
                  loading={unshare.isPending && unshare.variables === v.id}
                  onClick={() => unshare.mutate(v.id)}
                >
                  {t('savedViews.unshare')}
                </Button>
                <Button size="compact-sm" variant="subtle" color="red" onClick={act.remove}>
                  {t('savedViews.delete')}
                </Button>
              </Group>
            ),
          },
        ]}
        editor={(v, done) => (v ? <RenameView view={v} done={done} onSaved={refresh} /> : null)}
        removal={{
          title: () => t('savedViews.delete'),
          text: (v) => t('savedViews.deleteConfirm', { name: v.name }),
          action: t('savedViews.delete'),
          cancel: t('savedViews.cancel'),
          remove: async (v) => {
            await call(staffSavedViewRoutes.remove, { params: { company, viewid: v.id } });
            await refresh();
          },
          explain: (e) => errorText(e, t),
        }}
      />
    </Stack>
  );
}

function RenameView({ view, done, onSaved }: { view: SavedView; done: () => void; onSaved: () => unknown }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const [name, setName] = useState(view.name);
  const save = useMutation({
    mutationFn: () =>
      call(staffSavedViewRoutes.update, { params: { company, viewid: view.id }, body: { name } }),
    onSuccess: () => {
      void onSaved();
      done();
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Group align="flex-end" gap="xs">
        <TextInput
          label={t('savedViews.name')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          maxLength={SAVED_VIEW_NAME_MAX}
          required
          data-autofocus
        />
        <Button type="submit" loading={save.isPending} disabled={name.trim() === ''}>
          {t('savedViews.create')}
        </Button>
        <Button variant="default" onClick={done}>
          {t('savedViews.cancel')}
        </Button>
      </Group>
      {save.isError && (
        <Text c="red" size="sm" role="alert">
          {errorText(save.error, t)}
        </Text>
      )}
    </form>
  );
}
