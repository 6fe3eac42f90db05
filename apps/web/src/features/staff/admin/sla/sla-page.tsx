import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Group,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { slaPolicyInputSchema, type SlaPolicy, type SlaPolicyInput } from '@sportello/contracts';
import { ticketPriorities, type TicketPriority } from '@sportello/contracts/staff-views';
import { errorText } from '../../../../lib/error-text';
import { ListError, ListLoading } from '../../../../ui/list-states';
import { usePageTitle } from '../../../../ui/page-title';
import { useSaveSlaPolicy, useSlaPolicy } from '../api/sla';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { atFormFields, validateWith } from '../components/contract-form';
import { CompanyTargets } from './company-targets';

/** Monday first on screen; the policy keeps Sunday first (0 … 6). */
const WEEK = [1, 2, 3, 4, 5, 6, 0] as const;

/** The form's fields as typed: a day's intervals as `09:00-13:00, 14:00-18:00`, targets in hours. */
interface Draft {
  enabled: boolean;
  hours: string[];
  holidays: string;
  targets: Record<TicketPriority, { firstResponse: string; resolution: string }>;
}

const hoursText = (minutes: number | null) =>
  minutes === null ? '' : String(Math.round((minutes / 60) * 100) / 100);

function draftOf(p: SlaPolicy): Draft {
  return {
    enabled: p.enabled,
    hours: p.hours.map((day) => day.map(([a, b]) => `${a}-${b}`).join(', ')),
    holidays: p.holidays.join('\n'),
    targets: Object.fromEntries(
      ticketPriorities.map((k) => [
        k,
        {
          firstResponse: hoursText(p.targets[k].firstResponse),
          resolution: hoursText(p.targets[k].resolution),
        },
      ]),
    ) as Draft['targets'],
  };
}

/** The PUT body of a draft (checked with the contract's schema here and again by the server). */
function bodyOf(d: Draft): SlaPolicyInput {
  const minutes = (text: string) => {
    const n = Number(text.replace(',', '.'));
    return text.trim() === '' || !Number.isFinite(n) ? null : Math.round(n * 60);
  };
  return {
    enabled: d.enabled,
    hours: d.hours.map((text) =>
      text
        .split(/[,;]/)
        .map((part) => part.trim())
        .filter(Boolean)
        .map((part) => part.split('-').map((x) => x.trim()) as [string, string]),
    ),
    holidays: d.holidays
      .split(/\s+/)
      .map((x) => x.trim())
      .filter(Boolean),
    targets: Object.fromEntries(
      ticketPriorities.map((k) => [
        k,
        { firstResponse: minutes(d.targets[k].firstResponse), resolution: minutes(d.targets[k].resolution) },
      ]),
    ) as SlaPolicyInput['targets'],
  };
}

/**
 * The portal's service levels (issue 28 item 13): business hours per weekday, holidays, and per priority
 * the first-response and resolution targets in business hours. Agents see it; admins save it.
 */
export default function SlaPage() {
  const { t } = useStaffT();
  const { company } = useDesk();
  usePageTitle(t('sla.admin.title'));
  const policy = useSlaPolicy(company);
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('sla.admin.title')}
      </Title>
      {policy.isPending ? (
        <ListLoading />
      ) : policy.isError ? (
        <ListError onRetry={() => void policy.refetch()} message={errorText(policy.error, t)} />
      ) : (
        <>
          <SlaForm key={policy.data.updatedAt ?? 'default'} saved={policy.data} />
          <CompanyTargets portal={policy.data} />
        </>
      )}
    </Stack>
  );
}

function SlaForm({ saved }: { saved: SlaPolicy }) {
  const { t } = useStaffT();
  const { company, portal } = useDesk();
  const [done, setDone] = useState(false);
  // The PUT body's rules (times, intervals that end after they start and do not overlap, days, targets),
  // as the server's; a refused part is said at the day, the holidays or the target that holds it.
  const form = useForm<Draft>({
    initialValues: draftOf(saved),
    onValuesChange: () => setDone(false),
    validate: (d) =>
      atFormFields(
        validateWith(slaPolicyInputSchema, bodyOf, () => t('newTicket.invalid'), /./)(d),
        (path) => /^(hours\.\d|holidays|targets\.\w+\.\w+)/.exec(path)?.[1],
      ),
  });
  const save = useSaveSlaPolicy(company);
  const admin = portal.role === 'admin';
  return (
    <form
      onSubmit={form.onSubmit((d) => save.mutate(bodyOf(d), { onSuccess: () => setDone(true) }))}
      noValidate
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('sla.admin.hint', { zone: saved.timeZone })}
        </Text>
        {!admin && (
          <Alert color="gray" variant="light">
            {t('sla.admin.readOnly')}
          </Alert>
        )}
        {done && (
          <Alert color="teal" variant="light" role="status">
            {t('sla.admin.saved')}
          </Alert>
        )}
        {save.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorText(save.error, t)}
          </Alert>
        )}
        <Switch
          label={t('sla.admin.enabled')}
          disabled={!admin}
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        <Card withBorder padding="md" component="fieldset">
          <Title order={2} size="h4" component="legend">
            {t('sla.admin.hours')}
          </Title>
          <Stack gap="xs">
            {WEEK.map((day) => (
              <TextInput
                key={day}
                label={t(`sla.admin.days.${day}`)}
                placeholder={t('sla.admin.closed')}
                readOnly={!admin}
                {...form.getInputProps(`hours.${day}`)}
              />
            ))}
          </Stack>
        </Card>
        <Card withBorder padding="md" component="fieldset">
          <Title order={2} size="h4" component="legend">
            {t('sla.admin.targets')}
          </Title>
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
                {[...ticketPriorities].reverse().map((k) => (
                  <Table.Tr key={k}>
                    <Table.Th scope="row">{t(`priority.${k}`)}</Table.Th>
                    {(['firstResponse', 'resolution'] as const).map((field) => (
                      <Table.Td key={field}>
                        <TextInput
                          aria-label={`${t(`priority.${k}`)}: ${t(`sla.admin.${field}`)}`}
                          placeholder={t('sla.admin.none')}
                          inputMode="decimal"
                          readOnly={!admin}
                          {...form.getInputProps(`targets.${k}.${field}`)}
                        />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
        <Textarea
          label={t('sla.admin.holidays')}
          description={t('sla.admin.holidaysHint')}
          autosize
          minRows={3}
          readOnly={!admin}
          {...form.getInputProps('holidays')}
        />
        {admin && (
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('sla.admin.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
