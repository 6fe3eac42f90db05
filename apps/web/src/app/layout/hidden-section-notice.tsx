import { useState } from 'react';
import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Said when an address named a section the contact may not see (typed, or an old bookmark): the guard
 * brings them to the first one they may (route-guards.tsx), and this says why instead of leaving them
 * wondering. Loaded only then.
 */
export default function HiddenSectionNotice() {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(true);
  if (!isOpen) return null;
  return (
    <Alert
      role="status"
      color="blue"
      variant="light"
      mb="md"
      withCloseButton
      closeButtonLabel={t('common.close')}
      onClose={() => setIsOpen(false)}
      data-testid="hidden-section-notice"
    >
      {t('guard.hiddenSection')}
    </Alert>
  );
}
