import { useState } from 'react';
import { Anchor, Button, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { Link, Route, Routes, useNavigate } from 'react-router';
import { companyCreateSchema } from '@sportello/contracts';
import { errorText } from '../../../../lib/error-text';
import { usePageTitle } from '../../../../ui/page-title';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { adminPath } from '../admin-area';
import CompanyPage from './company-page';
import ContactPage from './contact-page';
import { companyNameBody, useCompanies, useCreateCompany } from '../api/people';
import { TableScroll } from '../table-scroll';
import { QueryStates } from '../query-states';
import { validateWith } from '../components/contract-form';

/**
 * Companies, contacts and users (issue 14 item 1): `companies` lists and searches the companies,
 * `companies/:id` is a company with its contacts, `companies/:id/contacts/:contactid` (or `new`) a
 * contact's editor, permissions, users and "see as this contact".
 */
export default function CompaniesSection() {
  return (
    <Routes>
      <Route index element={<CompanyList />} />
      <Route path=":id" element={<CompanyPage />} />
      <Route path=":id/contacts/:contactid" element={<ContactPage />} />
      <Route path="*" element={<CompanyList />} />
    </Routes>
  );
}

function CompanyList() {
  const { t } = useStaffT();
  const { company } = useDesk();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const [creating, setCreating] = useState(false);
  usePageTitle(t('admin.sections.companies'));
  const query = useCompanies(company, q);
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="end" wrap="wrap">
        <Title order={1} size="h2">
          {t('admin.sections.companies')}
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          {t('people.newCompany')}
        </Button>
      </Group>
      <TextInput
        label={t('people.search')}
        placeholder={t('people.searchCompanies')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={420}
        type="search"
      />
      <QueryStates query={query} isEmpty={() => items.length === 0} empty={t('people.empty')}>
        {() => (
          <TableScroll minWidth={320}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('people.companyName')}</Table.Th>
                  <Table.Th>{t('people.id')}</Table.Th>
                  <Table.Th ta="right">{t('people.contactsCount')}</Table.Th>
                  <Table.Th ta="right">{t('people.usersCount')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>
                      <Anchor component={Link} to={adminPath(company, 'companies', String(c.id))}>
                        {c.companyName}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{c.id}</Table.Td>
                    <Table.Td ta="right">{c.contacts}</Table.Td>
                    <Table.Td ta="right">{c.users}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </QueryStates>
      {query.hasNextPage && (
        <Button
          variant="default"
          onClick={() => void query.fetchNextPage()}
          loading={query.isFetchingNextPage}
          style={{ alignSelf: 'center' }}
        >
          {t('people.more')}
        </Button>
      )}
      <NewCompanyModal opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}

function NewCompanyModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const navigate = useNavigate();
  // The import's rule for a name (1 to 500 characters), checked with the server's schema.
  const form = useForm({
    initialValues: { companyName: '' },
    validate: validateWith(companyCreateSchema, companyNameBody, () => t('auth.requiredField')),
  });
  const create = useCreateCompany(company);
  const onCreated = (c: { id: number }) => {
    form.reset();
    onClose();
    void navigate(adminPath(company, 'companies', String(c.id)));
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('people.newCompany')} centered>
      <form
        noValidate
        onSubmit={form.onSubmit((v) =>
          create.mutate(companyNameBody(v).companyName, { onSuccess: onCreated }),
        )}
      >
        <Stack>
          <TextInput
            label={t('people.companyName')}
            {...form.getInputProps('companyName')}
            required
            maxLength={500}
            data-autofocus
          />
          {create.isError && (
            <Text c="red" size="sm" role="alert">
              {errorText(create.error, t)}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('people.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('people.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
