import { useState } from 'react';
import { Anchor, Button, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
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
import { AdminListEditor } from '../components/admin-list-editor';
import { PeopleSearch, right, ShowMore } from './people-list';
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
      <PeopleSearch value={search} onChange={setSearch} placeholder={t('people.searchCompanies')} />
      <AdminListEditor
        query={query}
        rows={(data) => data.pages.flatMap((p) => p.items)}
        rowKey={(c) => c.id}
        minWidth={320}
        empty={t('people.empty')}
        columns={[
          {
            header: t('people.companyName'),
            cell: (c) => (
              <Anchor component={Link} to={adminPath(company, 'companies', String(c.id))}>
                {c.companyName}
              </Anchor>
            ),
          },
          { header: t('people.id'), cell: (c) => c.id },
          { header: t('people.contactsCount'), ...right, cell: (c) => c.contacts },
          { header: t('people.usersCount'), ...right, cell: (c) => c.users },
        ]}
        footer={<ShowMore query={query} />}
      />
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
