import { lazy, Suspense, useState } from 'react';
import { UnstyledButton } from '@mantine/core';
import { useDisclosure, useHotkeys } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const SearchPopup = lazy(() => import('./search-popup'));

/**
 * The header's search button, and Ctrl+K (⌘K on a Mac) anywhere, even in a text box: both open the one
 * search. The popup's code loads on the first open, not with the first page.
 */
export function SearchButton({ className, hideLabelClass }: { className?: string; hideLabelClass?: string }) {
  const { t } = useTranslation();
  const [isOpen, popup] = useDisclosure(false);
  const [hasOpened, setHasOpened] = useState(false);
  const open = () => {
    setHasOpened(true);
    popup.open();
  };
  useHotkeys([['mod+K', open]], []);
  return (
    <>
      <UnstyledButton
        className={className}
        onClick={open}
        aria-label={t('search.open')}
        aria-keyshortcuts="Control+K Meta+K"
        aria-haspopup="dialog"
        data-testid="ticket-search-button"
      >
        <IconSearch size={20} aria-hidden />
        <span className={hideLabelClass} aria-hidden>
          {t('search.open')}
        </span>
      </UnstyledButton>
      {hasOpened && (
        <Suspense fallback={null}>
          <SearchPopup isOpen={isOpen} onClose={popup.close} />
        </Suspense>
      )}
    </>
  );
}
