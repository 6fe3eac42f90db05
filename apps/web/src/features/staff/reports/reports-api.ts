import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DeskReportQueryRead } from '@sportello/contracts';
import { deskReportRoutes } from '@sportello/contracts/route-refs';
import { call, downloadFrom } from '../../../lib/api-client';
import { staffKeys } from '../api/keys';

export type ReportName = 'volume' | 'times' | 'ratings';

const keyOf = (company: string, kind: ReportName, query: DeskReportQueryRead) =>
  [...staffKeys.portal(company), 'reports', kind, query] as const;
// A change of range or filter keeps the last figures on screen until the new ones are here.
const kept = { placeholderData: keepPreviousData, staleTime: 60_000 };

/** `GET …/reports/{volume,times,ratings}` (issue 28 item 14). */
export const useVolumeReport = (company: string, query: DeskReportQueryRead) =>
  useQuery({
    queryKey: keyOf(company, 'volume', query),
    queryFn: ({ signal }) => call(deskReportRoutes.volume, { params: { company }, query, signal }),
    ...kept,
  });
export const useTimesReport = (company: string, query: DeskReportQueryRead) =>
  useQuery({
    queryKey: keyOf(company, 'times', query),
    queryFn: ({ signal }) => call(deskReportRoutes.times, { params: { company }, query, signal }),
    ...kept,
  });
export const useRatingsReport = (company: string, query: DeskReportQueryRead) =>
  useQuery({
    queryKey: keyOf(company, 'ratings', query),
    queryFn: ({ signal }) => call(deskReportRoutes.ratings, { params: { company }, query, signal }),
    ...kept,
  });

/** `GET …/reports/{kind}.csv`: the same figures as a file (the breakdown's rows when one is asked). */
export function downloadReportCsv(
  company: string,
  kind: ReportName,
  query: DeskReportQueryRead,
): Promise<void> {
  const name = `${kind}${query.breakdown ? `-by-${query.breakdown}` : ''}-${company}-${query.from}-${query.to}.csv`;
  const opts = { params: { company }, query };
  if (kind === 'volume') return downloadFrom(deskReportRoutes.volumeCsv, opts, name, 'text/csv');
  if (kind === 'times') return downloadFrom(deskReportRoutes.timesCsv, opts, name, 'text/csv');
  return downloadFrom(deskReportRoutes.ratingsCsv, opts, name, 'text/csv');
}
