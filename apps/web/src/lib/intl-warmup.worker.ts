/**
 * Builds, on its own thread, the first formatters of the desk's rows and counts, so that the data they
 * load is there when the main thread builds its own (intl-warmup.ts says why): the display zone's
 * (its default until the portal's settings say) and a number's (other languages share most of its data).
 */
import { formatNumber } from './format';
import { formatDateTime } from './time-zone';

formatDateTime(new Date());
formatNumber(1234);
// Done: the data stays with the process.
close();
