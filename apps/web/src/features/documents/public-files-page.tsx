import { useState } from 'react';
import { Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useTenant } from '../../lib/tenant';
import { FilePreview } from '../../ui/file-preview';
import { FilterBar, SearchFilter, matchesText } from '../../ui/filter-bar';
import { ListStates } from '../../ui/list-states';
import { SidePanelLayout } from '../../ui/side-panel-layout';
import { usePublicFiles } from './api/public-files';
import { FileList } from './components/file-list';

/** SPEC A2 "Public files": search by file name, preview like documents. */
export default function PublicFilesPage() {
  const { t } = useTranslation();
  const { company } = useTenant();
  const files = usePublicFiles(company);
  const [text, setText] = useState('');
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const rows = (files.data ?? []).filter((f) => matchesText(f.fileName, text));
  const selected = rows.find((f) => f.id === selectedId) ?? null;

  return (
    <>
      <Title order={1} mb="md">
        {t('publicFiles.title')}
      </Title>
      <FilterBar label={t('publicFiles.filters')}>
        <SearchFilter label={t('publicFiles.search')} value={text} onChange={setText} />
      </FilterBar>
      <SidePanelLayout
        panelTitle={selected?.fileName ?? ''}
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
          <ListStates query={files} isEmpty={rows.length === 0}>
            <FileList
              label={t('publicFiles.title')}
              items={rows.map((f) => ({ id: f.id, title: f.fileName, fileName: f.fileName }))}
              selectedId={selectedId}
              onToggle={(id) => setSelectedId((cur) => (cur === id ? null : id))}
            />
          </ListStates>
        }
      />
    </>
  );
}
