import { importAfterContent } from '../../../lib/first-content';
import { loadRestStyles } from '../../../styles/load-rest-styles';

/**
 * The ticket page's parts after its conversation (ticket-page-rest.ts), once that conversation shows,
 * with Mantine's styles beyond the first paint, which they draw with (the page itself does not wait for
 * them: router.tsx).
 */
export const loadTicketPageRest = () =>
  importAfterContent(() => Promise.all([import('./ticket-page-rest'), loadRestStyles()])).then(([m]) => m);
