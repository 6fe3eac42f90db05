import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Group,
  MultiSelect,
  NativeSelect,
  NumberInput,
  Stack,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { type ServiceContractEntity } from '@sportello/contracts';
import { staffDeskRoutes } from '@sportello/contracts/route-refs';
import { pathOf } from '../../../../lib/api-client';
import { formatDate } from '../../../../lib/format';
import { portalDayOf, todayInPortal } from '../../../../lib/zone-days';
import { FileUpload, useFileUploads } from '../../../../ui/file-upload';
import { useDesk } from '../../desk-context';
import { EditorCard } from '../editor-card';
import { useStaffT } from '../../i18n';
import {
  useRemoveServiceContract,
  useSaveServiceContract,
  useServiceContracts,
} from '../api/service-contracts';
import { useAdminSettings } from '../api/settings';
import { useTags } from '../api/tags';
import { useAdminWiki } from '../api/wiki';
import { AdminListEditor } from '../components/admin-list-editor';

const baseName = (name: string) => name.replace(/\.[^.]+$/, '');

type Package = ServiceContractEntity['packages'][number];
type Activity = Package['activities'][number];
type ActivityForm = Omit<Activity, 'reportFileId'>;
type PackageForm = Omit<Package, 'activities'> & { activities: ActivityForm[] };
type ServiceForm = Omit<ServiceContractEntity, 'id' | 'companyId' | 'documents' | 'packages'> & {
  /** The stored documents, each kept with its file (by id) or dropped; new ones come from uploads. */
  documents: { id: number; documentName: string }[];
  packages: PackageForm[];
};

const nextId = (list: { id: number }[]) => Math.max(0, ...list.map((x) => x.id)) + 1;

/**
 * A company's service contracts with their packages (issue 14 item 2): list, create, edit, delete
 * through the entity routes (`…/admin/service-contracts`); tags of the portal and wiki elements of the
 * company are picked by name; documents are dropped as files (each uploads with its progress and is
 * sent by `{uploadId}`), renamed or removed.
 */
export function ServiceContractsPanel({ companyId }: { companyId: number }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const removeContract = useRemoveServiceContract(company, companyId);
  // The customers' menu shows service contracts only while the portal's switch is on (the same query
  // as Branding and settings, so a change there shows here at once).
  const settings = useAdminSettings(company);
  return (
    <AdminListEditor
      title={t('catalog.service.title')}
      newLabel={t('catalog.service.new')}
      before={
        settings.data &&
        !settings.data.enableServiceContracts && (
          <Alert color="yellow" variant="light" p="xs">
            {t('catalog.service.switchOff')}
          </Alert>
        )
      }
      query={useServiceContracts(company, companyId)}
      rows={(data) => data.items}
      rowKey={(c) => c.id}
      minWidth={620}
      empty={t('catalog.service.empty')}
      columns={[
        { header: t('catalog.contracts.name'), cell: (c) => c.name },
        {
          header: t('catalog.service.status'),
          cell: (c) => (
            <Badge variant="outline" color={c.status === 1 ? 'teal.9' : 'gray.7'} size="sm" miw="max-content">
              {t(`catalog.service.statuses.${c.status}`)}
            </Badge>
          ),
        },
        { header: t('catalog.service.activeFrom'), cell: (c) => formatDate(c.activeFrom) },
        { header: t('catalog.service.activeTo'), cell: (c) => (c.activeTo ? formatDate(c.activeTo) : '—') },
        {
          header: t('catalog.service.packages'),
          cell: (c) => c.packages.map((p) => p.name).join(', ') || '—',
        },
        {
          // Positioned: the hidden text stays inside the table's scroll region on a phone.
          header: <VisuallyHidden>{t('content.actions')}</VisuallyHidden>,
          th: { pos: 'relative' },
          cell: (c, act) => (
            <Group gap={4} wrap="nowrap">
              <Button
                size="xs"
                variant="default"
                onClick={act.edit}
                aria-label={t('content.editOf', { name: c.name })}
              >
                {t('catalog.contracts.edit')}
              </Button>
              <Button
                size="xs"
                variant="subtle"
                color="red"
                onClick={act.remove}
                aria-label={t('catalog.service.deleteOf', { name: c.name })}
              >
                {t('catalog.contracts.delete')}
              </Button>
            </Group>
          ),
        },
      ]}
      editor={(contract, done) => (
        <ServiceContractEditor companyId={companyId} contract={contract} onDone={done} />
      )}
      removal={{
        title: (c) => t('catalog.service.deleteOf', { name: c.name }),
        text: (c) => t('catalog.service.removeConfirm', { name: c.name }),
        action: t('catalog.contracts.delete'),
        cancel: t('catalog.cancel'),
        remove: (c) => removeContract(c.id),
      }}
    />
  );
}

function ServiceContractEditor({
  companyId,
  contract,
  onDone,
}: {
  companyId: number;
  contract: ServiceContractEntity | null;
  onDone: () => void;
}) {
  const { t } = useStaffT();
  const { company } = useDesk();
  // The portal's tags (the customers' own tags call) and the company's wiki elements, to pick by name.
  const tags = useTags(company);
  const wiki = useAdminWiki(company, companyId);
  const [form, setForm] = useState<ServiceForm>(() =>
    contract
      ? {
          name: contract.name,
          status: contract.status,
          activeFrom: portalDayOf(contract.activeFrom),
          activeTo: portalDayOf(contract.activeTo) || null,
          tagIds: contract.tagIds,
          wikiElementIds: contract.wikiElementIds,
          documents: contract.documents.map(({ id, documentName }) => ({ id, documentName })),
          packages: contract.packages.map((p) => ({
            ...p,
            activities: p.activities.map(({ reportFileId: _r, ...a }) => ({
              ...a,
              start: portalDayOf(a.start),
            })),
          })),
        }
      : {
          name: '',
          status: 1,
          activeFrom: todayInPortal(),
          activeTo: null,
          tagIds: [],
          wikiElementIds: [],
          documents: [],
          packages: [],
        },
  );
  const set = <K extends keyof ServiceForm>(k: K, v: ServiceForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const setPackage = (i: number, patch: Partial<PackageForm>) =>
    setForm((f) => ({ ...f, packages: f.packages.map((p, j) => (j === i ? { ...p, ...patch } : p)) }));
  // New documents: files dropped here, each named before saving (by default after its file).
  const uploads = useFileUploads(pathOf(staffDeskRoutes.upload, { company }));
  const [names, setNames] = useState<Record<string, string>>({});
  const uploaded = uploads.items.filter((it) => it.status === 'done' && it.result);
  const save = useSaveServiceContract(company, companyId, contract?.id ?? null);
  const onSave = () => {
    const first = nextId(form.documents);
    const added = uploaded.map((it, i) => ({
      id: first + i,
      documentName: (names[it.key] ?? baseName(it.name)).trim() || it.name,
      file: { uploadId: it.result!.id },
    }));
    const body = { ...form, activeTo: form.activeTo || null, documents: [...form.documents, ...added] };
    save.mutate(body, { onSuccess: onDone });
  };
  return (
    <EditorCard
      title={contract ? contract.name : t('catalog.service.new')}
      onSave={onSave}
      onCancel={onDone}
      error={save.isError ? save.error : null}
      saving={save.isPending}
      saveDisabled={uploads.isUploading}
    >
      <TextInput
        label={t('catalog.contracts.name')}
        required
        value={form.name}
        onChange={(e) => set('name', e.currentTarget.value)}
      />
      <Group grow align="start" wrap="wrap">
        <NativeSelect
          label={t('catalog.service.status')}
          value={String(form.status)}
          onChange={(e) => set('status', e.currentTarget.value === '4' ? 4 : 1)}
          data={[
            { value: '1', label: t('catalog.service.statuses.1') },
            { value: '4', label: t('catalog.service.statuses.4') },
          ]}
          miw={130}
        />
        <TextInput
          type="date"
          label={t('catalog.service.activeFrom')}
          required
          value={form.activeFrom}
          onChange={(e) => set('activeFrom', e.currentTarget.value)}
          miw={150}
        />
        <TextInput
          type="date"
          label={t('catalog.service.activeTo')}
          value={form.activeTo ?? ''}
          onChange={(e) => set('activeTo', e.currentTarget.value || null)}
          miw={150}
        />
      </Group>
      <Group grow align="start" wrap="wrap">
        <MultiSelect
          label={t('catalog.service.tags')}
          data={(tags.data ?? []).map((tag) => ({
            value: String(tag.id),
            label: tag.tagGroupName ? `${tag.tagGroupName}: ${tag.name}` : tag.name,
          }))}
          value={(form.tagIds ?? []).map(String)}
          onChange={(v) => set('tagIds', v.map(Number))}
          searchable
          miw={200}
        />
        <MultiSelect
          label={t('catalog.service.wikiElements')}
          data={(wiki.data?.elements ?? []).map((e) => ({ value: String(e.id), label: e.name }))}
          value={(form.wikiElementIds ?? []).map(String)}
          onChange={(v) => set('wikiElementIds', v.map(Number))}
          searchable
          miw={200}
        />
      </Group>
      <Stack gap={4}>
        <Text fw={600} size="sm">
          {t('catalog.service.documents')}
        </Text>
        {form.documents.map((d, i) => (
          <Group key={d.id} gap="xs" align="end" wrap="nowrap">
            <TextInput
              label={t('catalog.service.documentName')}
              required
              value={d.documentName}
              onChange={(e) => {
                const documentName = e.currentTarget.value;
                set(
                  'documents',
                  form.documents.map((x, j) => (j === i ? { ...x, documentName } : x)),
                );
              }}
              style={{ flex: 1 }}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              mb={4}
              aria-label={t('catalog.service.removeDocument', { name: d.documentName })}
              onClick={() =>
                set(
                  'documents',
                  form.documents.filter((_, j) => j !== i),
                )
              }
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        ))}
        <FileUpload uploads={uploads} label={t('catalog.service.dropDocuments')} />
        {uploaded.map((it) => (
          <TextInput
            key={it.key}
            label={t('catalog.service.newDocumentName', { name: it.name })}
            required
            value={names[it.key] ?? baseName(it.name)}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setNames((n) => ({ ...n, [it.key]: value }));
            }}
          />
        ))}
      </Stack>
      <Text fw={600} size="sm">
        {t('catalog.service.packages')}
      </Text>
      {form.packages.map((p, i) => (
        <PackageFields
          key={p.id}
          value={p}
          onChange={(patch) => setPackage(i, patch)}
          onRemove={() =>
            set(
              'packages',
              form.packages.filter((_, j) => j !== i),
            )
          }
          defaultDay={form.activeFrom}
        />
      ))}
      <Button
        variant="subtle"
        w="fit-content"
        leftSection={<IconPlus size={14} aria-hidden />}
        onClick={() =>
          set('packages', [
            ...form.packages,
            { id: nextId(form.packages), name: '', unitsText: '', residualText: '', activities: [] },
          ])
        }
      >
        {t('catalog.service.addPackage')}
      </Button>
    </EditorCard>
  );
}

/** One package: its name, what it holds and what is left (as the customer reads them), its activities. */
function PackageFields({
  value: p,
  onChange,
  onRemove,
  defaultDay,
}: {
  value: PackageForm;
  onChange: (patch: Partial<PackageForm>) => void;
  onRemove: () => void;
  defaultDay: string;
}) {
  const { t } = useStaffT();
  const setActivity = (i: number, patch: Partial<ActivityForm>) =>
    onChange({ activities: p.activities.map((a, j) => (j === i ? { ...a, ...patch } : a)) });
  return (
    <Card withBorder padding="sm" role="group" aria-label={p.name || t('catalog.service.package')}>
      <Stack gap="xs">
        <Group gap="xs" align="end" wrap="wrap">
          <TextInput
            label={t('catalog.service.packageName')}
            required
            value={p.name}
            onChange={(e) => onChange({ name: e.currentTarget.value })}
            miw={180}
            style={{ flex: 2 }}
          />
          <TextInput
            label={t('catalog.service.unitsText')}
            value={p.unitsText}
            onChange={(e) => onChange({ unitsText: e.currentTarget.value })}
            miw={140}
            style={{ flex: 1 }}
          />
          <TextInput
            label={t('catalog.service.residualText')}
            value={p.residualText}
            onChange={(e) => onChange({ residualText: e.currentTarget.value })}
            miw={140}
            style={{ flex: 1 }}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            mb={4}
            aria-label={t('catalog.service.removePackage', { name: p.name })}
            onClick={onRemove}
          >
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </Group>
        {p.activities.map((a, i) => (
          <Group key={a.id} gap="xs" align="end" wrap="wrap" pl="md">
            <TextInput
              label={t('catalog.contracts.activityType')}
              required
              value={a.activityTypeName}
              onChange={(e) => setActivity(i, { activityTypeName: e.currentTarget.value })}
              miw={180}
            />
            <TextInput
              type="date"
              label={t('catalog.contracts.date')}
              required
              value={portalDayOf(a.start)}
              onChange={(e) => setActivity(i, { start: e.currentTarget.value })}
            />
            <NumberInput
              label={t('catalog.contracts.units')}
              min={0}
              decimalScale={2}
              value={a.units ?? ''}
              onChange={(v) => setActivity(i, { units: v === '' ? null : Number(v) })}
              w={100}
            />
            <NumberInput
              label={t('catalog.contracts.durationMinutes')}
              min={0}
              value={a.durationMinutes}
              onChange={(v) => setActivity(i, { durationMinutes: Number(v) || 0 })}
              w={100}
            />
            <TextInput
              label={t('catalog.contracts.assignedUser')}
              value={a.assignedUser}
              onChange={(e) => setActivity(i, { assignedUser: e.currentTarget.value })}
              miw={140}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              mb={4}
              aria-label={t('catalog.contracts.removeActivity')}
              onClick={() => onChange({ activities: p.activities.filter((_, j) => j !== i) })}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        ))}
        <Button
          variant="subtle"
          size="xs"
          w="fit-content"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() =>
            onChange({
              activities: [
                ...p.activities,
                {
                  id: nextId(p.activities),
                  activityTypeName: '',
                  start: defaultDay,
                  durationMinutes: 0,
                  units: 1,
                  assignedUser: '',
                  addressType: 0,
                  activityLocation_Address: null,
                },
              ],
            })
          }
        >
          {t('catalog.contracts.addActivity')}
        </Button>
      </Stack>
    </Card>
  );
}
