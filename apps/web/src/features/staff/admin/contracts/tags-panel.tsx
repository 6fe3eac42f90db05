import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { tagCreateSchema, type Tag } from '@sportello/contracts';
import { ApiRequestError } from '../../../../lib/api-client';
import { errorText } from '../../../../lib/error-text';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { useRemoveTag, useSaveTag, useTags } from '../api/tags';
import { AdminListEditor, iconActionsColumn } from '../components/admin-list-editor';
import { validateWith } from '../components/contract-form';

/**
 * The portal's tags (issue 14: until now only the import wrote them), which service contracts pick:
 * add, rename or regroup, remove after a confirmation, through the entity routes (`…/admin/tags`, the
 * import's rules, an audit row and an event each). A tag that contracts still name is not removed:
 * the server says so (409 `entity_in_use`) and the panel says it in words.
 */
export function TagsPanel() {
  const { t } = useStaffT();
  const { company } = useDesk();
  const removeTag = useRemoveTag(company);
  return (
    <AdminListEditor
      component="section"
      aria-labelledby="tags-title"
      data-testid="tags-panel"
      title={t('catalog.tags.title')}
      titleId="tags-title"
      before={
        <Text size="sm" c="dimmed">
          {t('catalog.tags.hint')}
        </Text>
      }
      query={useTags(company)}
      rows={(data) => data}
      rowKey={(tag) => tag.id}
      rowProps={() => ({ 'data-testid': 'tag-row' })}
      minWidth={300}
      empty={t('catalog.tags.empty')}
      columns={[
        { header: t('catalog.tags.group'), cell: (tag) => tag.tagGroupName || '—' },
        { header: t('catalog.tags.name'), cell: (tag) => tag.name },
        iconActionsColumn<Tag>({
          heading: t('content.actions'),
          edit: (tag) => t('catalog.tags.editOf', { name: tag.name }),
          remove: (tag) => t('catalog.tags.removeOf', { name: tag.name }),
        }),
      ]}
      editAs="row"
      editor={(tag, done) => <TagForm tag={tag} onDone={done} />}
      footer={<TagForm tag={null} onDone={() => undefined} />}
      removal={{
        title: (tag) => t('catalog.tags.removeOf', { name: tag.name }),
        text: (tag) => t('catalog.tags.removeConfirm', { name: tag.name }),
        action: t('catalog.tags.remove'),
        cancel: t('catalog.cancel'),
        remove: (tag) => removeTag(tag.id),
        explain: (e, tag) =>
          e instanceof ApiRequestError && e.code === 'entity_in_use'
            ? t('catalog.tags.inUse', { name: tag.name })
            : null,
      }}
    />
  );
}

const tagBody = (values: { name: string; tagGroupName: string }) => ({
  name: values.name.trim(),
  tagGroupName: values.tagGroupName.trim() || null,
});

/** A new tag (`tag` null: the form stays for the next one) or the change of one. */
function TagForm({ tag, onDone }: { tag: Tag | null; onDone: () => void }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const save = useSaveTag(company, tag?.id ?? null);
  // The import's rules (a name, at most 500 characters each), checked with the server's schema.
  const form = useForm({
    initialValues: { name: tag?.name ?? '', tagGroupName: tag?.tagGroupName ?? '' },
    validate: validateWith(tagCreateSchema, tagBody, () => t('catalog.tags.nameRequired')),
  });
  const onSubmit = form.onSubmit((values) =>
    save.mutate(tagBody(values), {
      onSuccess: () => {
        if (!tag) form.reset();
        onDone();
      },
    }),
  );
  const label = tag ? t('catalog.tags.editOf', { name: tag.name }) : t('catalog.tags.new');
  return (
    <form onSubmit={onSubmit} aria-label={label} noValidate data-testid={tag ? 'tag-edit' : 'tag-new'}>
      <Stack gap={6}>
        <Group gap="xs" align="flex-start" wrap="wrap">
          <TextInput
            label={tag ? t('catalog.tags.name') : t('catalog.tags.newName')}
            required
            maxLength={500}
            {...form.getInputProps('name')}
            miw={160}
            style={{ flex: 1 }}
          />
          <TextInput
            label={t('catalog.tags.group')}
            maxLength={500}
            {...form.getInputProps('tagGroupName')}
            miw={140}
            style={{ flex: 1 }}
          />
          <Group gap="xs" mt={{ base: 0, xs: 25 }}>
            <Button
              type="submit"
              loading={save.isPending}
              leftSection={tag ? undefined : <IconPlus size={16} aria-hidden />}
            >
              {tag ? t('catalog.save') : t('catalog.tags.add')}
            </Button>
            {tag && (
              <Button variant="default" onClick={onDone}>
                {t('catalog.cancel')}
              </Button>
            )}
          </Group>
        </Group>
        {save.isError && (
          <Alert color="red" variant="light" role="alert" p="xs">
            {t('catalog.tags.saveError', { reason: errorText(save.error, t) })}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
