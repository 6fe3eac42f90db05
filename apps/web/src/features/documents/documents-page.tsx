import { useState } from 'react';
import { Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/format';
import { useTenant } from '../../lib/tenant';
import { FilePreview } from '../../ui/file-preview';
import { FilterBar, SearchFilter, matchesText } from '../../ui/filter-bar';
import { ListStates } from '../../ui/list-states';
import { SidePanelLayout } from '../../ui/side-panel-layout';
import { useContactDocuments } from './api/contact-documents';
import { DocumentUpload } from './components/document-upload';
import { FileList } from './components/file-list';

/** SPEC A2 "Documents" (menu: Company files): search, upload when allowed, list and an 800 px preview. */
export default function DocumentsPage() {
  const { t } = useTranslation();
  const { company, contactId, contact } = useTenant();
  const documents = useContactDocuments(company, contactId);
  const [text, setText] = useState('');
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const rows = (documents.data ?? []).filter((d) => matchesText(d.documentName, text));
  const selected = rows.find((d) => d.id === selectedId) ?? null;

  return (
    <>
      <Title order={1} mb="md">
        {t('documents.title')}
      </Title>
      {contact.uploadContactDocuments && <DocumentUpload company={company} contactId={contactId} />}
      <FilterBar label={t('documents.filters')}>
        <SearchFilter label={t('documents.search')} value={text} onChange={setText} />
      </FilterBar>
      <SidePanelLayout
        panelTitle={selected?.documentName ?? ''}
        onClose={() => setSelectedId(null)}
        panel={
          selected ? (
            <FilePreview
              withName={false}
              url={selected.url}
              name={selected.fileName}
              contentType={selected.contentType}
              height={800}
            />
          ) : null
        }
        list={
          <ListStates query={documents} isEmpty={rows.length === 0}>
            <FileList
              label={t('documents.title')}
              items={rows.map((d) => ({
                id: d.id,
                title: d.documentName,
                fileName: d.fileName || d.documentName,
                detail: formatDate(d.createDate),
              }))}
              selectedId={selectedId}
              onToggle={(id) => setSelectedId((cur) => (cur === id ? null : id))}
            />
          </ListStates>
        }
      />
    </>
  );
}
