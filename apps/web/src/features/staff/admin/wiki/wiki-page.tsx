import { ActionIcon, Badge, Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import { useSearchParams } from 'react-router';
import {
  WIKI_DATA_TYPES,
  wikiElementUpdateSchema,
  type WikiElementEntity,
  type WikiFolderEntity,
} from '@sportello/contracts';
import { usePageTitle } from '../../../../ui/page-title';
import { useDesk } from '../../desk-context';
import { EditorCard } from '../editor-card';
import { useStaffT } from '../../i18n';
import { CompanyPicker } from '../company-picker';
import { useAdminWiki, useSaveWikiElement } from '../api/wiki';
import { AdminListEditor } from '../components/admin-list-editor';
import { saveWhenValid, validateWith } from '../components/contract-form';

type Property = WikiElementEntity['properties'][number];
type DataType = Property['dataType'];
type ElementForm = { name: string; folderId: number; properties: Property[] };

/** The request's body: a file property keeps its file (not sent), an empty value is none. */
const elementBody = ({ name, folderId, properties }: ElementForm) => ({
  name,
  folderId,
  properties: properties.map(({ fileId: _f, ...p }) => ({
    ...p,
    value: p.dataType === 'file' || p.value === '' ? null : p.value,
  })),
});

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
  return (
    <AdminListEditor
      query={useAdminWiki(company, companyId)}
      rows={(data) => data.elements}
      rowKey={(e) => e.id}
      minWidth={520}
      empty={t('catalog.wiki.empty')}
      newLabel={t('catalog.wiki.newElement')}
      newDisabled={(data) => !data || data.folders.length === 0}
      columns={[
        { header: t('catalog.wiki.name'), cell: (e) => e.name },
        {
          header: t('catalog.wiki.folder'),
          cell: (e, _act, data) => data.folders.find((f) => f.id === e.folderId)?.name ?? `#${e.folderId}`,
        },
        {
          header: t('catalog.wiki.properties'),
          cell: (e) => (
            <Group gap={4}>
              {e.properties.map((p) => (
                <Badge key={p.id} variant="outline" color="gray.7" tt="none">
                  {p.typologyName}
                  {p.dataType === 'file' ? '' : `: ${p.value ?? '—'}`}
                </Badge>
              ))}
            </Group>
          ),
        },
        {
          cell: (_e, act) => (
            <Button size="xs" variant="default" onClick={act.edit}>
              {t('catalog.contracts.edit')}
            </Button>
          ),
        },
      ]}
      editor={(element, done, data) => (
        <ElementEditor companyId={companyId} folders={data.folders} element={element} onDone={done} />
      )}
    />
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
  const save = useSaveWikiElement(company, companyId, element?.id ?? null);
  const form = useForm<ElementForm>({
    initialValues: {
      name: element?.name ?? '',
      folderId: element?.folderId ?? folders[0]?.id ?? 0,
      properties: element?.properties ?? [],
    },
    validate: validateWith(
      wikiElementUpdateSchema,
      elementBody,
      (field) => (/(^name|typologyName)$/.test(field) ? t('auth.requiredField') : t('newTicket.invalid')),
      /^(name|properties\.\d+\.(typologyName|value))$/,
    ),
  });
  const { properties } = form.getValues();
  const put = (i: number, patch: Partial<Property>) =>
    form.setFieldValue(`properties.${i}`, { ...properties[i]!, ...patch });
  return (
    <EditorCard
      title={element ? element.name : t('catalog.wiki.newElement')}
      onSave={saveWhenValid(form, (values) => save.mutate(elementBody(values), { onSuccess: onDone }))}
      onCancel={onDone}
      error={save.isError ? save.error : null}
      saving={save.isPending}
    >
      <TextInput label={t('catalog.wiki.name')} required {...form.getInputProps('name')} />
      <NativeSelect
        label={t('catalog.wiki.folder')}
        value={String(form.getValues().folderId)}
        onChange={(e) => form.setFieldValue('folderId', Number(e.currentTarget.value))}
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
            error={form.errors[`properties.${i}.typologyName`]}
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
              error={form.errors[`properties.${i}.value`]}
              miw={180}
            />
          )}
          <ActionIcon
            variant="subtle"
            color="red"
            mb={4}
            aria-label={t('catalog.wiki.removeProperty')}
            onClick={() => form.removeListItem('properties', i)}
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
          form.insertListItem('properties', {
            id: Math.max(0, ...properties.map((p) => p.id)) + 1,
            typologyName: '',
            dataType: 'text',
            value: '',
            fileId: null,
          })
        }
      >
        {t('catalog.wiki.addProperty')}
      </Button>
    </EditorCard>
  );
}
