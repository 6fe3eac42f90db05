import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Invoice } from '@sportello/contracts';
import { formatDate, formatEuro } from '../../lib/format';
import { useInvoices } from './api/invoices';
import { BillingListPage } from './components/billing-list-page';

/** SPEC A2 "Invoices": search by number, date range; a row shows its document (900 px) with a download link. */
export default function InvoicesPage() {
  const { t, i18n } = useTranslation();
  return (
    <BillingListPage<Invoice>
      title={t('billing.invoicesTitle')}
      searchLabel={t('billing.searchNumber')}
      searchText={(inv) => inv.documentNumber}
      useList={useInvoices}
      rowTestId="invoice-row"
      panelTitle={(inv) => t('billing.invoiceTitle', { number: inv.documentNumber })}
      document={(inv) => ({ url: inv.invoiceDocumentUrl, name: `${inv.documentNumber}.pdf` })}
      row={(inv) => (
        <>
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text fw={600}>{inv.documentNumber}</Text>
            <Text fw={600}>{formatEuro(inv.total, i18n.language)}</Text>
          </Group>
          <Text size="sm" c="gray.7">
            {t('billing.invoiceDate', { date: formatDate(inv.invoiceDate) })}
          </Text>
        </>
      )}
    />
  );
}
