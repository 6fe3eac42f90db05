import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Invoice } from '@sportello/contracts';
import { formatDate, formatEuro } from '../../lib/format';
import listClasses from '../../ui/list.module.css';
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
          <Payment invoice={inv} />
        </>
      )}
    />
  );
}

/** The payment as the back office tracks it (nothing when it does not); overdue in bold red, in words. */
function Payment({ invoice: inv }: { invoice: Invoice }) {
  const { t } = useTranslation();
  if (inv.payment === 'paid' && inv.paidDate)
    return (
      <Text size="sm" c="gray.7" data-testid="invoice-payment">
        {t('billing.paidOn', { date: formatDate(inv.paidDate) })}
      </Text>
    );
  if (!inv.dueDate || inv.payment === null || inv.payment === 'paid') return null;
  const overdue = inv.payment === 'overdue';
  return (
    <Text
      size="sm"
      c={overdue ? undefined : 'gray.7'}
      className={overdue ? listClasses.alert : undefined}
      data-testid="invoice-payment"
    >
      {t(overdue ? 'billing.overdue' : 'billing.dueBy', { date: formatDate(inv.dueDate) })}
    </Text>
  );
}
