import { Alert, Anchor } from '@mantine/core';
import { IconArrowMerge } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TicketDetail } from '@sportello/contracts';

/**
 * A ticket the support team merged into another (issue 28): its conversation continues there. The
 * number links to that ticket when this contact may open it.
 */
export function MergedBanner({
  mergedInto,
  basePath,
}: {
  mergedInto: NonNullable<TicketDetail['mergedInto']>;
  basePath: string;
}) {
  const { t } = useTranslation();
  const number = mergedInto.reachable ? (
    <Anchor component={Link} to={`${basePath}/tickets/${mergedInto.id}`} fw={700}>
      {mergedInto.ticketNumber}
    </Anchor>
  ) : (
    <strong>{mergedInto.ticketNumber}</strong>
  );
  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconArrowMerge size={18} aria-hidden />}
      data-testid="merged-into"
    >
      {t('tickets.detail.mergedInto')} {number}.{' '}
      {mergedInto.reachable ? t('tickets.detail.mergedContinue') : t('tickets.detail.mergedElsewhere')}
    </Alert>
  );
}
