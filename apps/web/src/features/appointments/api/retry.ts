import { ApiRequestError } from '../../../lib/api-client';

/** A 4xx (unknown key, bad range) will not change by asking again; network errors and 5xx get one retry. */
export const retryUnlessClientError = (failures: number, error: unknown) =>
  !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500) && failures < 1;
