import { Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { SAVED_VIEW_NAME_MAX, savedViewUpdateSchema, type SavedView } from '@sportello/contracts';
import { Link } from 'react-router';
import { errorText } from '../../../../lib/error-text';
import { formatNumber } from '../../../../lib/format';
import { usePageTitle } from '../../../../ui/page-title';
import { savedViewsQuery } from '../../api/saved-views';
import { savedViewSearch } from '../../components/saved-views';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { staffPath } from '../../staff-paths';
import { AdminListEditor } from '../components/admin-list-editor';
import { validateWith } from '../components/contract-form';
import { useRemoveView, useRenameView, useUnshareView } from '../api/shared-views';

/**
 * The portal's shared views (issue 28 item 5): what every member sees beside the inbox's views, with
 * who made each and its count; rename, stop sharing, delete. A view is shared from the inbox (the
 * view's menu), where it was saved.
 */
export default function SharedViewsPage() {
  const { t, i18n } = useStaffT();
  const { company } = useDesk();
  const query = useQuery(savedViewsQuery(company));
  const unshare = useUnshareView(company);
  const removeView = useRemoveView(company);
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
        editor={(v, done) => (v ? <RenameView view={v} done={done} /> : null)}
        removal={{
          title: () => t('savedViews.delete'),
          text: (v) => t('savedViews.deleteConfirm', { name: v.name }),
          action: t('savedViews.delete'),
          cancel: t('savedViews.cancel'),
          remove: (v) => removeView(v.id),
          explain: (e) => errorText(e, t),
        }}
      />
    </Stack>
  );
}

const renameBody = (v: { name: string }) => ({ name: v.name.trim() });

/** A shared view's new name, by the change route's rule (1 to 60 characters). */
function RenameView({ view, done }: { view: SavedView; done: () => void }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const form = useForm({
    initialValues: { name: view.name },
    validate: validateWith(savedViewUpdateSchema, renameBody, () => t('auth.requiredField')),
  });
  const save = useRenameView(company, view.id);
  return (
    <form noValidate onSubmit={form.onSubmit((v) => save.mutate(renameBody(v), { onSuccess: done }))}>
      <Group align="flex-start" gap="xs">
        <TextInput
          label={t('savedViews.name')}
          {...form.getInputProps('name')}
          maxLength={SAVED_VIEW_NAME_MAX}
          required
          data-autofocus
        />
        <Button type="submit" mt={{ base: 0, xs: 25 }} loading={save.isPending}>
          {t('savedViews.create')}
        </Button>
        <Button variant="default" mt={{ base: 0, xs: 25 }} onClick={done}>
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
