import { lazy, Suspense, useState } from 'react';
import { UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import classes from './shell.module.css';

const TicketSearchPopup = lazy(() => import('./ticket-search-popup'));

/** The header's ticket search: a popup 800 px wide and at most 600 px high (SPEC A2, A9). */
export function TicketSearch() {
  const { t } = useTranslation();
  const [isOpen, popup] = useDisclosure(false);
  // The popup's code (modal, focus trap, scroll area) loads on the first open, not with the first page.
  const [hasOpened, setHasOpened] = useState(false);
  return (
    <>
      <UnstyledButton
        className={classes.headerButton}
        onClick={() => {
          setHasOpened(true);
          popup.open();
        }}
        aria-label={t('layout.searchTickets')}
        aria-haspopup="dialog"
        data-testid="ticket-search-button"
      >
        <IconSearch size={20} aria-hidden />
        <span className={classes.hideXs} aria-hidden>
          {t('layout.searchTickets')}
        </span>
      </UnstyledButton>
      {hasOpened && (
        <Suspense fallback={null}>
          <TicketSearchPopup isOpen={isOpen} onClose={popup.close} />
        </Suspense>
      )}
    </>
  );
}
