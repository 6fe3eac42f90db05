/**
 * dayjs, for calendar arithmetic and formats (the date pickers, their presets, typed dates, recurrences),
 * with the interface language's month names. Only the pages and widgets with calendars import it: the
 * first load formats with Intl (format.ts, time-zone.ts) and leaves dayjs out.
 */
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import 'dayjs/locale/it';
import 'dayjs/locale/es';
import 'dayjs/locale/en';
import { i18n } from '../i18n';

dayjs.extend(customParseFormat);

/** dayjs's locale is the first two letters of the language shown. */
const follow = (language: string | undefined) => void dayjs.locale((language ?? 'it').slice(0, 2));
follow(i18n.language);
i18n.on('languageChanged', follow);

export { dayjs };
