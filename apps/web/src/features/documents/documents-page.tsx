import { Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/format';
import { useTenant } from '../../lib/tenant';
import { useContactDocuments } from './api/contact-documents';
import { DocumentUpload } from './components/document-upload';
import { FileBrowser } from './components/file-browser';
import { usePageTitle } from '../../ui/page-title';

/** SPEC A2 "Documents" (menu: Company files): search, upload when allowed, list and an 800 px preview. */
export default function DocumentsPage() {
  const { t } = useTranslation();
  usePageTitle(t('documents.title'));
  const { company, contactId, contact } = useTenant();
  const documents = useContactDocuments(company, contactId);

  return (
    <>
      <Title order={1} mb="md">
        {t('documents.title')}
      </Title>
      {contact.uploadContactDocuments && <DocumentUpload company={company} contactId={contactId} />}
      <FileBrowser
        query={documents}
        label={t('documents.title')}
        filtersLabel={t('documents.filters')}
        searchLabel={t('documents.search')}
        row={(d) => ({
          title: d.documentName,
          fileName: d.fileName || d.documentName,
          detail: formatDate(d.createDate),
        })}
      />
    </>
  );
}
