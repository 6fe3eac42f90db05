import { useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { WIKI_DATA_TYPES, type WikiElementEntity, type WikiFolderEntity } from '@sportello/contracts';
import { catalogAdminRoutes, entityStaffRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import { errorText } from '../../../../lib/error-text';
import { ListEmpty, ListError, ListLoading } from '../../../../ui/list-states';
import { usePageTitle } from '../../../../ui/page-title';
import { staffKeys } from '../../api/keys';
import { useDesk } from '../../desk-context';
import { EditorCard } from '../editor-card';
import { useStaffT } from '../../i18n';
import { CompanyPicker } from '../company-picker';
import { TableScroll } from '../table-scroll';

type Property = WikiElementEntity['properties'][number];
type DataType = Property['dataType'];

/**
 * Wiki (issue 14 item 2): a company's folders and elements with their typed properties; create and edit
 * elements (a file property keeps the file the import gave it; new files come with the import).
 */
export default function WikiAdminPage() {
  const { t } = useStaffT();
  const [params, setParams] = useSearchParams();
  const companyId = /^\d+$/.test(params.get('company') ?? '') ? Number(params.get('company')) : null;
  usePageTitle(t('admin.sections.wiki'));
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin.sections.wiki')}
      </Title>
      <CompanyPicker
        value={companyId}
        onChange={(id) => setParams(id === null ? {} : { company: String(id) }, { replace: true })}
      />
      {companyId !== null && <WikiPanel key={companyId} companyId={companyId} />}
    </Stack>
  );
}

function WikiPanel({ companyId }: { companyId: number }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const [editing, setEditing] = useState<WikiElementEntity | 'new' | null>(null);
  const wiki = useQuery({
    queryKey: [...staffKeys.portal(company), 'admin', 'wiki', companyId] as const,
    queryFn: ({ signal }) =>
      call(catalogAdminRoutes.wiki, { params: { company }, query: { companyId }, signal }),
  });
  if (wiki.isPending) return <ListLoading />;
  if (wiki.isError)
    return <ListError onRetry={() => void wiki.refetch()} message={errorText(wiki.error, t)} />;
  const { folders, elements } = wiki.data;
  if (editing)
    return (
      <ElementEditor
        companyId={companyId}
        folders={folders}
        element={editing === 'new' ? null : editing}
        onDone={() => setEditing(null)}
      />
    );
  const folderName = (id: number) => folders.find((f) => f.id === id)?.name ?? `#${id}`;
  return (
    <Stack gap="sm">
      <Group justify="flex-end">
        <Button
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setEditing('new')}
          disabled={folders.length === 0}
        >
          {t('catalog.wiki.newElement')}
        </Button>
      </Group>
      {elements.length === 0 ? (
        <ListEmpty text={t('catalog.wiki.empty')} />
      ) : (
        <TableScroll minWidth={520}>
          <Table verticalSpacing="xs" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('catalog.wiki.name')}</Table.Th>
                <Table.Th>{t('catalog.wiki.folder')}</Table.Th>
                <Table.Th>{t('catalog.wiki.properties')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {elements.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>{e.name}</Table.Td>
                  <Table.Td>{folderName(e.folderId)}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {e.properties.map((p) => (
                        <Badge key={p.id} variant="outline" color="gray.7" tt="none">
                          {p.typologyName}
                          {p.dataType === 'file' ? '' : `: ${p.value ?? '—'}`}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="default" onClick={() => setEditing(e)}>
                      {t('catalog.contracts.edit')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      )}
    </Stack>
  );
}

function ElementEditor({
  companyId,
  folders,
  element,
  onDone,
}: {
  companyId: number;
  folders: WikiFolderEntity[];
  element: WikiElementEntity | null;
  onDone: () => void;
}) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const client = useQueryClient();
  const [name, setName] = useState(element?.name ?? '');
  const [folderId, setFolderId] = useState(element?.folderId ?? folders[0]?.id ?? 0);
  const [properties, setProperties] = useState<Property[]>(element?.properties ?? []);
  const put = (i: number, patch: Partial<Property>) =>
    setProperties((ps) => ps.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  const save = useMutation({
    mutationFn: () => {
      const body = {
        name,
        folderId,
        properties: properties.map(({ fileId: _f, ...p }) => ({
          ...p,
          value: p.dataType === 'file' || p.value === '' ? null : p.value,
        })),
      };
      return element
        ? call(entityStaffRoutes.updateWikiElement, { params: { company, elementid: element.id }, body })
        : call(entityStaffRoutes.createWikiElement, { params: { company }, body: { ...body, companyId } });
    },
    onSuccess: async () => {
      await client.invalidateQueries({
        queryKey: [...staffKeys.portal(company), 'admin', 'wiki', companyId],
      });
      onDone();
    },
  });
  return (
    <EditorCard
      title={element ? element.name : t('catalog.wiki.newElement')}
      onSave={() => save.mutate()}
      onCancel={onDone}
      error={save.isError ? save.error : null}
      saving={save.isPending}
    >
      <TextInput
        label={t('catalog.wiki.name')}
        required
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
      />
      <NativeSelect
        label={t('catalog.wiki.folder')}
        value={String(folderId)}
        onChange={(e) => setFolderId(Number(e.currentTarget.value))}
        data={folders.map((f) => ({ value: String(f.id), label: f.name }))}
      />
      <Text fw={600} size="sm">
        {t('catalog.wiki.properties')}
      </Text>
      {properties.map((p, i) => (
        <Group key={p.id} gap="xs" align="end" wrap="wrap">
          <TextInput
            label={t('catalog.wiki.property')}
            required
            value={p.typologyName}
            onChange={(e) => put(i, { typologyName: e.currentTarget.value })}
            miw={160}
          />
          <NativeSelect
            label={t('catalog.wiki.type')}
            value={p.dataType}
            onChange={(e) => put(i, { dataType: e.currentTarget.value as DataType })}
            data={WIKI_DATA_TYPES.map((d) => ({ value: d, label: t(`catalog.wiki.types.${d}`) }))}
          />
          {p.dataType === 'bool' ? (
            <NativeSelect
              label={t('catalog.wiki.value')}
              value={p.value ?? ''}
              onChange={(e) => put(i, { value: e.currentTarget.value || null })}
              data={[
                { value: '', label: '—' },
                { value: 'true', label: t('catalog.wiki.yes') },
                { value: 'false', label: t('catalog.wiki.no') },
              ]}
            />
          ) : p.dataType === 'file' ? (
            <Text size="sm" pb={8}>
              {p.fileId ? t('catalog.wiki.fileKept') : t('catalog.wiki.fileFromImport')}
            </Text>
          ) : (
            <TextInput
              label={t('catalog.wiki.value')}
              type={p.dataType === 'date' ? 'date' : p.dataType === 'number' ? 'number' : 'text'}
              value={p.value ?? ''}
              onChange={(e) => put(i, { value: e.currentTarget.value })}
              miw={180}
            />
          )}
          <ActionIcon
            variant="subtle"
            color="red"
            mb={4}
            aria-label={t('catalog.wiki.removeProperty')}
            onClick={() => setProperties((ps) => ps.filter((_, j) => j !== i))}
          >
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </Group>
      ))}
      <Button
        variant="subtle"
        w="fit-content"
        leftSection={<IconPlus size={14} aria-hidden />}
        onClick={() =>
          setProperties((ps) => [
            ...ps,
            {
              id: Math.max(0, ...ps.map((p) => p.id)) + 1,
              typologyName: '',
              dataType: 'text',
              value: '',
              fileId: null,
            },
          ])
        }
      >
        {t('catalog.wiki.addProperty')}
      </Button>
    </EditorCard>
  );
}
