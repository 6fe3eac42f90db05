import { useState } from 'react';
import { Anchor, Badge, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { companyUpdateSchema, type CompanyEntity } from '@sportello/contracts';
import { errorText } from '../../../../lib/error-text';
import { ListError } from '../../../../ui/list-states';
import { usePageTitle } from '../../../../ui/page-title';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { adminPath } from '../admin-area';
import { companyNameBody, useCompany, useCompanyContacts, useRenameCompany } from '../api/people';
import { AdminListEditor } from '../components/admin-list-editor';
import { PeopleSearch, right, ShowMore } from './people-list';
import { BouncingMark } from '../email/bounce-notice';
import { validateWith } from '../components/contract-form';

/** A company: its name (renamed here) and its contacts, searched, with "New contact". */
export default function CompanyPage() {
  const { t } = useStaffT();
  const { company } = useDesk();
  const id = Number(useParams().id);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const entity = useCompany(company, id);
  usePageTitle(entity.data?.companyName ?? t('people.companies'));
  const contacts = useCompanyContacts(company, id, q);
  return (
    <Stack gap="md">
      <Anchor component={Link} to={adminPath(company, 'companies')} size="sm">
        {t('people.back')}
      </Anchor>
      {entity.isError ? (
        <ListError message={errorText(entity.error, t)} onRetry={() => void entity.refetch()} />
      ) : (
        <>
          <Title order={1} size="h2">
            {entity.data?.companyName ?? '…'}{' '}
            <Badge variant="light" color="gray" ml="xs">
              {t('people.id')} {id}
            </Badge>
          </Title>
          {entity.data && <RenameForm key={entity.data.companyName} entity={entity.data} />}
        </>
      )}
      <Group justify="space-between" align="end" wrap="wrap" mt="md">
        <Title order={2} size="h3">
          {t('people.contacts')}
        </Title>
        <Button
          component={Link}
          to={adminPath(company, 'companies', `${id}/contacts/new`)}
          leftSection={<IconPlus size={16} aria-hidden />}
        >
          {t('people.newContact')}
        </Button>
      </Group>
      <PeopleSearch value={search} onChange={setSearch} placeholder={t('people.searchContacts')} />
      <AdminListEditor
        query={contacts}
        rows={(data) => data.pages.flatMap((p) => p.items)}
        rowKey={(c) => c.contactId}
        minWidth={320}
        empty={t('people.empty')}
        columns={[
          {
            header: t('people.referentName'),
            cell: (c) => (
              <Anchor component={Link} to={adminPath(company, 'companies', `${id}/contacts/${c.contactId}`)}>
                {c.referentName}
              </Anchor>
            ),
          },
          {
            header: t('people.email'),
            td: { style: { overflowWrap: 'anywhere' } },
            cell: (c) => (
              <>
                {c.email ?? ''}
                {c.bouncing && <BouncingMark />}
              </>
            ),
          },
          { header: t('people.usersCount'), ...right, cell: (c) => c.users },
        ]}
        footer={<ShowMore query={contacts} />}
      />
    </Stack>
  );
}

/** The company's new name, by the rename route's rule; the stored name until it is changed. */
function RenameForm({ entity }: { entity: CompanyEntity }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const rename = useRenameCompany(company, entity.id);
  const form = useForm({
    initialValues: { companyName: entity.companyName },
    validate: validateWith(companyUpdateSchema, companyNameBody, () => t('auth.requiredField')),
  });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => rename.mutate(companyNameBody(v).companyName))}>
      <Group align="start" wrap="wrap">
        <TextInput
          label={t('people.companyName')}
          {...form.getInputProps('companyName')}
          maxLength={500}
          w={{ base: '100%', sm: 360 }}
        />
        <Button
          type="submit"
          variant="default"
          mt={{ base: 0, sm: 25 }}
          loading={rename.isPending}
          disabled={!form.isDirty()}
        >
          {t('people.rename')}
        </Button>
      </Group>
      {rename.isError && (
        <Text c="red" size="sm" role="alert" mt="xs">
          {errorText(rename.error, t)}
        </Text>
      )}
    </form>
  );
}
