import { Loader, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './shell.module.css';

/**
 * Covers the screen while the user and portal load (SPEC A2), so no half-branded page flashes. The
 * server's frame of a customer screen stands in its place while it is drawn (public/sign-in-shell.js
 * reads its test id).
 */
export function FullScreenSpinner() {
  const { t } = useTranslation();
  return (
    <div className={classes.spinner} role="status" aria-live="polite" data-testid="full-screen-spinner">
      <Loader size="lg" aria-hidden />
      <VisuallyHidden>{t('layout.loadingPortal')}</VisuallyHidden>
    </div>
  );
}
