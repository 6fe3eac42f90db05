import { useState, type FormEvent } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { tagCreateSchema, type Tag } from '@sportello/contracts';
import { contractRoutes, entityStaffRoutes } from '@sportello/contracts/route-refs';
import { ApiRequestError, call } from '../../../../lib/api-client';
import { errorText } from '../../../../lib/error-text';
import { staffKeys } from '../../api/keys';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { TableScroll } from '../table-scroll';
import { QueryStates } from '../query-states';
import { ConfirmRemove } from '../confirm-remove';

/** The tags query of the desk (the service contracts' tag picker reads the same, so it follows). */
export const tagsKey = (company: string) => [...staffKeys.portal(company), 'admin', 'tags'] as const;

/**
 * The portal's tags (issue 14: until now only the import wrote them), which service contracts pick:
 * add, rename or regroup, remove after a confirmation, through the entity routes (`…/admin/tags`, the
 * import's rules, an audit row and an event each). A tag that contracts still name is not removed:
 * the server says so (409 `entity_in_use`) and the panel says it in words.
 */
export function TagsPanel() {
  const { t } = useStaffT();
  const { company } = useDesk();
  const [editing, setEditing] = useState<Tag | null>(null);
  const [removing, setRemoving] = useState<Tag | null>(null);
  const list = useQuery({
    queryKey: tagsKey(company),
    queryFn: ({ signal }) => call(contractRoutes.tags, { params: { company }, signal }),
  });
  return (
    <Stack gap="sm" component="section" aria-labelledby="tags-title" data-testid="tags-panel">
      <Title order={2} size="h3" id="tags-title">
        {t('catalog.tags.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('catalog.tags.hint')}
      </Text>
      <QueryStates query={list} isEmpty={(data) => data.length === 0} empty={t('catalog.tags.empty')}>
        {(data) => (
          <TableScroll minWidth={300}>
            <Table verticalSpacing="xs" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('catalog.tags.group')}</Table.Th>
                  <Table.Th>{t('catalog.tags.name')}</Table.Th>
                  {/* Positioned: the hidden text stays inside the table's scroll region on a phone. */}
                  <Table.Th pos="relative">
                    <VisuallyHidden>{t('content.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.map((tag) =>
                  editing?.id === tag.id ? (
                    <Table.Tr key={tag.id}>
                      <Table.Td colSpan={3}>
                        <TagForm tag={tag} onDone={() => setEditing(null)} />
                      </Table.Td>
                    </Table.Tr>
                  ) : (
                    <Table.Tr key={tag.id} data-testid="tag-row">
                      <Table.Td>{tag.tagGroupName || '—'}</Table.Td>
                      <Table.Td>{tag.name}</Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap" justify="flex-end">
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('catalog.tags.editOf', { name: tag.name })}
                            onClick={() => setEditing(tag)}
                          >
                            <IconPencil size={16} aria-hidden />
                          </ActionIcon>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('catalog.tags.removeOf', { name: tag.name })}
                            onClick={() => setRemoving(tag)}
                          >
                            <IconTrash size={16} aria-hidden />
                          </ActionIcon>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ),
                )}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </QueryStates>
      <TagForm tag={null} onDone={() => undefined} />
      {removing && <RemoveTag tag={removing} onClose={() => setRemoving(null)} />}
    </Stack>
  );
}

/** A new tag (`tag` null: the form stays for the next one) or the change of one. */
function TagForm({ tag, onDone }: { tag: Tag | null; onDone: () => void }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const client = useQueryClient();
  const [name, setName] = useState(tag?.name ?? '');
  const [group, setGroup] = useState(tag?.tagGroupName ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => {
      const body = { name: name.trim(), tagGroupName: group.trim() || null };
      return tag
        ? call(entityStaffRoutes.updateTag, { params: { company, tagid: tag.id }, body })
        : call(entityStaffRoutes.createTag, { params: { company }, body });
    },
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: tagsKey(company) });
      if (!tag) {
        setName('');
        setGroup('');
      }
      onDone();
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    // The import's rules (a name, at most 500 characters each), checked with the server's schema.
    const checked = tagCreateSchema.safeParse({ name, tagGroupName: group.trim() || null });
    setProblem(checked.success ? null : t('catalog.tags.nameRequired'));
    if (checked.success) save.mutate();
  };
  const label = tag ? t('catalog.tags.editOf', { name: tag.name }) : t('catalog.tags.new');
  return (
    <form onSubmit={onSubmit} aria-label={label} noValidate data-testid={tag ? 'tag-edit' : 'tag-new'}>
      <Stack gap={6}>
        <Group gap="xs" align="flex-start" wrap="wrap">
          <TextInput
            label={tag ? t('catalog.tags.name') : t('catalog.tags.newName')}
            required
            value={name}
            maxLength={500}
            onChange={(e) => setName(e.currentTarget.value)}
            error={problem}
            miw={160}
            style={{ flex: 1 }}
          />
          <TextInput
            label={t('catalog.tags.group')}
            value={group}
            maxLength={500}
            onChange={(e) => setGroup(e.currentTarget.value)}
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

function RemoveTag({ tag, onClose }: { tag: Tag; onClose: () => void }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const client = useQueryClient();
  return (
    <ConfirmRemove
      title={t('catalog.tags.removeOf', { name: tag.name })}
      text={t('catalog.tags.removeConfirm', { name: tag.name })}
      action={t('catalog.tags.remove')}
      cancel={t('catalog.cancel')}
      onClose={onClose}
      remove={async () => {
        await call(entityStaffRoutes.deleteTag, { params: { company, tagid: tag.id } });
        await client.invalidateQueries({ queryKey: tagsKey(company) });
      }}
      explain={(e) =>
        e instanceof ApiRequestError && e.code === 'entity_in_use'
          ? t('catalog.tags.inUse', { name: tag.name })
          : null
      }
    />
  );
}
