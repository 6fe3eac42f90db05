import { useState } from 'react';
import { Alert, Button, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { triageSettingInputSchema, type TriageSetting } from '@sportello/contracts';
import { errorText } from '../../../../lib/error-text';
import { ListError, ListLoading } from '../../../../ui/list-states';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { useSaveTriage, useTriage } from '../api/triage';
import { validateWith } from '../components/contract-form';

/** The Select's value for "the portal's admins" (group ids are numbers). */
const ADMINS = 'admins';

const triageBody = (values: { groupId: string }) => ({
  groupId: values.groupId === ADMINS ? null : Number(values.groupId),
});

/**
 * Who hears of a customer's ticket or reply that has no assignee and no group (issue 28 item 2): one
 * of the portal's groups, or its admins (the default, and again once the chosen group is removed).
 */
export function TriageBlock({ groups }: { groups: { id: number; name: string }[] }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const triage = useTriage(company);
  // Kept here: a save remounts the form on what the server kept (and so does a removed group).
  const [saved, setSaved] = useState(false);
  return (
    <Card withBorder component="section" aria-labelledby="triage-title" data-testid="setup-triage">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h3" id="triage-title">
            {t('setup.triage')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('setup.triageHint')}
          </Text>
        </div>
        {triage.isPending ? (
          <ListLoading />
        ) : triage.isError ? (
          <ListError onRetry={() => void triage.refetch()} message={errorText(triage.error, t)} />
        ) : (
          <TriageForm
            key={triage.data.group?.id ?? ADMINS}
            current={triage.data}
            groups={groups}
            saved={saved}
            setSaved={setSaved}
          />
        )}
      </Stack>
    </Card>
  );
}

function TriageForm({
  current,
  groups,
  saved,
  setSaved,
}: {
  current: TriageSetting;
  groups: { id: number; name: string }[];
  saved: boolean;
  setSaved: (saved: boolean) => void;
}) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const save = useSaveTriage(company);
  const form = useForm({
    initialValues: { groupId: current.group ? String(current.group.id) : ADMINS },
    validate: validateWith(triageSettingInputSchema, triageBody, () => t('newTicket.invalid')),
    onValuesChange: () => setSaved(false),
  });
  const onSubmit = form.onSubmit((values) =>
    save.mutate(triageBody(values), { onSuccess: () => setSaved(true) }),
  );
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('setup.triage')}>
      <Stack gap="xs">
        <Group gap="xs" align="flex-end" wrap="wrap">
          <Select
            label={t('setup.triageWho')}
            data={[
              { value: ADMINS, label: t('setup.triageAdmins') },
              ...groups.map((g) => ({ value: String(g.id), label: g.name })),
            ]}
            allowDeselect={false}
            {...form.getInputProps('groupId')}
            miw={220}
            style={{ flex: 1, maxWidth: 420 }}
            data-testid="triage-select"
          />
          <Button type="submit" loading={save.isPending} disabled={!form.isDirty() && !save.isError}>
            {t('setup.save')}
          </Button>
        </Group>
        {saved && (
          <Text size="sm" c="teal.9" role="status">
            {t('setup.triageSaved')}
          </Text>
        )}
        {save.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorText(save.error, t)}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
