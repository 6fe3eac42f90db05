import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Estimate } from '@sportello/contracts';
import { formatDate, formatEuro } from '../../lib/format';
import { useEstimates } from './api/estimates';
import { BillingListPage } from './components/billing-list-page';

/** SPEC A2 "Estimates": search by name, date range; rows with number, revision, total; document beside (900 px). */
export default function EstimatesPage() {
  const { t, i18n } = useTranslation();
  return (
    <BillingListPage<Estimate>
      title={t('billing.estimatesTitle')}
      searchLabel={t('billing.searchName')}
      searchText={(e) => e.estimateName}
      useList={useEstimates}
      rowTestId="estimate-row"
      panelTitle={(e) => e.estimateName}
      document={(e) => ({ url: e.estimateDocumentUrl, name: `${e.estimateNumber}.pdf` })}
      row={(e) => (
        <>
          <Group justify="space-between" gap="xs" wrap="wrap" align="flex-start">
            <Text fw={600}>{e.estimateName}</Text>
            <Text fw={600}>{formatEuro(e.total, i18n.language)}</Text>
          </Group>
          <Group gap="sm" wrap="wrap">
            <Text size="sm">{t('billing.estimateNumber', { number: e.estimateNumber })}</Text>
            {e.revisionNumber > 0 && (
              <Badge variant="outline" color="gray.7" tt="none" radius="sm" data-testid="estimate-revision">
                {t('billing.revision', { n: e.revisionNumber })}
              </Badge>
            )}
            <Text size="sm" c="gray.7">
              {t('billing.createdOn', { date: formatDate(e.estimateCreationDate) })}
            </Text>
          </Group>
        </>
      )}
    />
  );
}
