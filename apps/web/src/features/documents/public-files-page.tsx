import { Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useTenant } from '../../lib/tenant';
import { usePublicFiles } from './api/public-files';
import { FileBrowser } from './components/file-browser';
import { usePageTitle } from '../../ui/page-title';

/** SPEC A2 "Public files": search by file name, preview like documents. */
export default function PublicFilesPage() {
  const { t } = useTranslation();
  usePageTitle(t('publicFiles.title'));
  const { company } = useTenant();
  const files = usePublicFiles(company);

  return (
    <>
      <Title order={1} mb="md">
        {t('publicFiles.title')}
      </Title>
      <FileBrowser
        query={files}
        label={t('publicFiles.title')}
        filtersLabel={t('publicFiles.filters')}
        searchLabel={t('publicFiles.search')}
        row={(f) => ({ title: f.fileName, fileName: f.fileName })}
      />
    </>
  );
}
