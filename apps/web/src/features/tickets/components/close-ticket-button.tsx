import { lazy, Suspense, useEffect, useState } from 'react';
import { Button } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { loadTicketPageRest } from './ticket-page-rest-load';

const CloseTicketDialog = lazy(() => loadTicketPageRest().then((m) => ({ default: m.CloseTicketDialog })));

/**
 * 'Close the ticket' with a confirmation. The button is drawn with the ticket's title (appearing later,
 * it would move the title's line); its dialog comes with the page's other parts after the conversation
 * (ticket-page-rest.ts), asked for then so that a click finds it here.
 */
export function CloseTicketButton({
  company,
  contactId,
  ticketId,
}: {
  company: string;
  contactId: number;
  ticketId: number;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  // Kept once opened, so the dialog closes with its transition.
  const [wasOpened, setWasOpened] = useState(false);
  useEffect(() => void loadTicketPageRest().catch(() => {}), []);
  return (
    <>
      <Button
        variant="outline"
        color="red.8"
        leftSection={<IconCircleCheck size={16} aria-hidden />}
        onClick={() => {
          setOpened(true);
          setWasOpened(true);
        }}
      >
        {t('tickets.detail.close')}
      </Button>
      {wasOpened && (
        <Suspense fallback={null}>
          <CloseTicketDialog
            company={company}
            contactId={contactId}
            ticketId={ticketId}
            opened={opened}
            onClose={() => setOpened(false)}
          />
        </Suspense>
      )}
    </>
  );
}
