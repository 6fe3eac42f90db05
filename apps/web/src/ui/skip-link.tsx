import { useTranslation } from 'react-i18next';
import classes from './skip-link.module.css';

/** The id every page's main region carries, so the skip link can reach it. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * First focusable element of a page: jumps keyboard users past the header and menu. Focus is moved by
 * hand because a hash change would go through the router, which does not move focus.
 */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      className={classes.skipLink}
      href={`#${MAIN_CONTENT_ID}`}
      onClick={(e) => {
        const main = document.getElementById(MAIN_CONTENT_ID);
        if (!main) return;
        e.preventDefault();
        main.focus();
        main.scrollIntoView();
      }}
    >
      {t('common.skipToContent')}
    </a>
  );
}
