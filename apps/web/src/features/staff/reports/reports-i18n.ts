import { useTranslation } from 'react-i18next';
import { addTextsNamespace } from '../../../i18n';

export const REPORTS_NS = 'desk-reports';

/** The reports page's texts, a namespace of their own: the desk's first visit carries none of them. */
export const loadReportTexts = () =>
  addTextsNamespace(REPORTS_NS, {
    'it-IT': () => import('./i18n/it-IT.json'),
    'en-EN': () => import('./i18n/en-EN.json'),
    'es-ES': () => import('./i18n/es-ES.json'),
  });

/** `t` of the reports: their texts, then the desk's, then the app's. */
export const useReportsT = () => useTranslation([REPORTS_NS, 'staff', 'translation'], { nsMode: 'fallback' });
