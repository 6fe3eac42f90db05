import { useEffect, useRef } from 'react';
import { Alert, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  slaCompanyInputSchema,
  type SlaCompany,
  type SlaCompanyInput,
  type SlaCompanyList,
  type SlaPolicy,
} from '@sportello/contracts';
import { ticketPriorities, type TicketPriority } from '@sportello/contracts/staff-views';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { useRemoveSlaCompany, useSaveSlaCompany, useSlaCompanies } from '../api/sla-companies';
import { CompanyPicker } from '../company-picker';
import { AdminListEditor, iconActionsColumn } from '../components/admin-list-editor';
import { saveWhenValid, validateWith } from '../components/contract-form';
import { EditorCard } from '../editor-card';

const TARGETS = ['firstResponse', 'resolution'] as const;
/** Most urgent first, as the portal's table. */
const PRIORITIES = [...ticketPriorities].reverse();

/** Business minutes as the hours the admin types (`1.5`). */
const hoursText = (minutes: number) => String(Math.round((minutes / 60) * 100) / 100);

/** The editor's fields: the company, and per priority each target as typed (empty: the portal's). */
interface Draft {
  companyId: number | null;
  targets: Record<TicketPriority, Record<(typeof TARGETS)[number], string>>;
}

function draftOf(companyId: number | null, own: SlaCompany['targets'] | undefined): Draft {
  return {
    companyId,
    targets: Object.fromEntries(
      ticketPriorities.map((p) => [
        p,
        Object.fromEntries(
          TARGETS.map((k) => {
            const minutes = own?.[p]?.[k];
            return [k, minutes === undefined ? '' : hoursText(minutes)];
          }),
        ),
      ]),
    ) as Draft['targets'],
  };
}

/** The PUT body: each target typed, in minutes (text that is no number stays NaN: the schema refuses it). */
function bodyOf(d: Draft): SlaCompanyInput {
  const targets: SlaCompanyInput['targets'] = {};
  for (const p of ticketPriorities) {
    const own: Partial<Record<(typeof TARGETS)[number], number>> = {};
    for (const k of TARGETS) {
      const text = d.targets[p][k].trim();
      if (text !== '') own[k] = Math.round(Number(text.replace(',', '.')) * 60);
    }
    if (Object.keys(own).length > 0) targets[p] = own;
  }
  return { targets };
}

/**
 * The companies with service-level targets of their own (issue 28 item 13), under the portal's policy
 * on its page: a faster first answer sold to some clients. Each company's targets replace the portal's
 * for its tickets where set; an empty field keeps the portal's (shown as the field's placeholder). The
 * admins' only: agents neither see nor call it.
 */
export function CompanyTargets({ portal }: { portal: SlaPolicy }) {
  const { portal: membership } = useDesk();
  return membership.role === 'admin' ? <CompanyTargetsList portal={portal} /> : null;
}

function CompanyTargetsList({ portal }: { portal: SlaPolicy }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const list = useSlaCompanies(company);
  const remove = useRemoveSlaCompany(company);
  const summary = (row: SlaCompany) =>
    PRIORITIES.flatMap((p) => {
      const own = row.targets[p];
      if (!own) return [];
      const parts = TARGETS.flatMap((k) => {
        const minutes = own[k];
        return minutes === undefined
          ? []
          : [`${t(`sla.admin.${k}`)} ${t('sla.admin.companies.hours', { value: hoursText(minutes) })}`];
      });
      return [`${t(`priority.${p}`)}: ${parts.join(', ')}`];
    });
  return (
    // The list, or in its place the editor of one company (with its own heading).
    <div data-testid="sla-companies">
      <AdminListEditor
        title={t('sla.admin.companies.title')}
        newLabel={t('sla.admin.companies.add')}
        before={
          <Text size="sm" c="dimmed">
            {t('sla.admin.companies.hint')}
          </Text>
        }
        query={list}
        rows={(data) => data.items}
        rowKey={(r) => r.company.id}
        minWidth={300}
        empty={t('sla.admin.companies.empty')}
        columns={[
          { header: t('sla.admin.companies.company'), cell: (r) => r.company.name },
          {
            header: t('sla.admin.companies.own'),
            cell: (r) => (
              <Stack gap={0}>
                {summary(r).map((line) => (
                  <Text key={line} size="sm">
                    {line}
                  </Text>
                ))}
              </Stack>
            ),
          },
          iconActionsColumn<SlaCompany>({
            heading: t('content.actions'),
            edit: (r) => t('sla.admin.companies.editOf', { name: r.company.name }),
            remove: (r) => t('sla.admin.companies.removeOf', { name: r.company.name }),
          }),
        ]}
        editor={(row, done, data) => (
          <CompanyTargetsEditor row={row} list={data} portal={portal} onDone={done} />
        )}
        removal={{
          title: (r) => t('sla.admin.companies.removeOf', { name: r.company.name }),
          text: (r) => t('sla.admin.companies.removeText', { name: r.company.name }),
          action: t('sla.admin.companies.remove'),
          cancel: t('catalog.cancel'),
          remove: (r) => remove(r.company.id),
        }}
      />
    </div>
  );
}

function CompanyTargetsEditor({
  row,
  list,
  portal,
  onDone,
}: {
  row: SlaCompany | null;
  list: SlaCompanyList;
  portal: SlaPolicy;
  onDone: () => void;
}) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const save = useSaveSlaCompany(company);
  const form = useForm<Draft>({
    initialValues: draftOf(row?.company.id ?? null, row?.targets),
    validate: (d) => {
      // The body's rules as the server's, said at the target that breaks one.
      const errors = validateWith(
        slaCompanyInputSchema,
        bodyOf,
        () => t('newTicket.invalid'),
        /^targets\.\w+\.\w+$/,
      )(d);
      if (d.companyId === null) errors.companyId = t('sla.admin.companies.pick');
      else if (Object.keys(bodyOf(d).targets).length === 0)
        errors.targets = t('sla.admin.companies.atLeastOne');
      return errors;
    },
  });
  // The portal's target, greyed in the empty field (short: a phone's field is 70 px wide).
  const portalText = (minutes: number | null) =>
    minutes === null ? '—' : t('sla.admin.companies.hours', { value: hoursText(minutes) });
  // The editor opens at the end of a long page, in the list's place: the focus goes to its first field.
  const fields = useRef<HTMLDivElement>(null);
  useEffect(() => fields.current?.querySelector('input')?.focus(), []);
  return (
    <EditorCard
      title={row ? t('sla.admin.companies.editOf', { name: row.company.name }) : t('sla.admin.companies.add')}
      onSave={saveWhenValid(form, (d) =>
        save.mutate({ id: d.companyId!, body: bodyOf(d) }, { onSuccess: onDone }),
      )}
      onCancel={onDone}
      error={save.error}
      saving={save.isPending}
    >
      <Stack gap="sm" ref={fields}>
        {!row && (
          <CompanyPicker
            value={form.values.companyId}
            required
            error={typeof form.errors.companyId === 'string' ? form.errors.companyId : null}
            onChange={(id) => {
              // A company that has targets already: its own, to change.
              const own = list.items.find((r) => r.company.id === id)?.targets;
              form.setValues(draftOf(id, own));
              form.clearErrors();
            }}
          />
        )}
        <Text size="sm" c="dimmed">
          {t('sla.admin.companies.editorHint')}
        </Text>
        <Table.ScrollContainer minWidth={300}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th />
                <Table.Th>{t('sla.admin.firstResponse')}</Table.Th>
                <Table.Th>{t('sla.admin.resolution')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {PRIORITIES.map((p) => (
                <Table.Tr key={p}>
                  <Table.Th scope="row">{t(`priority.${p}`)}</Table.Th>
                  {TARGETS.map((k) => (
                    <Table.Td key={k}>
                      <TextInput
                        aria-label={t('sla.admin.companies.fieldOf', {
                          field: `${t(`priority.${p}`)}: ${t(`sla.admin.${k}`)}`,
                        })}
                        placeholder={portalText(portal.targets[p][k])}
                        inputMode="decimal"
                        {...form.getInputProps(`targets.${p}.${k}`)}
                      />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
      {typeof form.errors.targets === 'string' && (
        <Alert color="red" variant="light" role="alert" p="xs">
          {form.errors.targets}
        </Alert>
      )}
    </EditorCard>
  );
}
