import type { TFunction } from 'i18next';
import { ApiRequestError } from './api-client';

/**
 * What went wrong, in the user's language, for a sentence like "The reply could not be sent: {{reason}}".
 * The browser's own words ("Failed to fetch", "NetworkError when attempting to fetch resource.") and a
 * server's status text ("Internal Server Error") are English and say nothing to the user: a network
 * failure, a server failure, a too large request and throttling each have a translated text. The
 * server's message of any other refusal (4xx) is kept: it names the field or the rule.
 */
export function errorText(error: unknown, t: TFunction): string {
  if (error instanceof ApiRequestError) {
    if (error.status === 0) return t('common.errors.network');
    if (error.status >= 500) return t('common.errors.server');
    if (error.status === 413) return t('common.errors.tooLarge');
    if (error.status === 429) return t('common.errors.tooMany');
    return error.message || t('common.errors.unknown');
  }
  // fetch rejects with a TypeError when the request never got an answer (offline, server down, CORS).
  if (error instanceof TypeError) return t('common.errors.network');
  return t('common.errors.unknown');
}
