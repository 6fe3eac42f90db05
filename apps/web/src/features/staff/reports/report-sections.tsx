/**
 * The reports' sections: each a chart (drawn for the eye, `role="img"` with its title) and the same
 * figures in a table (what a screen reader and the tests read), with the CSV of the same request.
 */
import { useState, type ReactNode } from 'react';
import { BarChart, CompositeChart, LineChart } from '@mantine/charts';
import { Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { DeskReportQueryRead, ReportBreakdown, ReportKey, TimeStat } from '@sportello/contracts';
import { errorText } from '../../../lib/error-text';
import { ListError, ListLoading } from '../../../ui/list-states';
import { TableScroll } from '../admin/table-scroll';
import {
  downloadReportCsv,
  useRatingsReport,
  useTimesReport,
  useVolumeReport,
  type ReportName,
} from './reports-api';
import { useReportsT } from './reports-i18n';

interface SectionProps {
  company: string;
  query: DeskReportQueryRead;
}

const CHART_HEIGHT = 260;

function ReportCard({
  title,
  testId,
  company,
  kind,
  query,
  summary,
  chart,
  table,
}: {
  title: string;
  testId: string;
  company: string;
  kind: ReportName;
  query: DeskReportQueryRead;
  summary?: ReactNode;
  chart?: ReactNode;
  table: ReactNode;
}) {
  const { t } = useReportsT();
  const [error, setError] = useState<string | null>(null);
  const headingId = `${testId}-title`;
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      component="section"
      aria-labelledby={headingId}
      data-testid={testId}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="center" wrap="wrap">
          <Title order={2} size="h4" id={headingId}>
            {title}
          </Title>
          <Button
            variant="default"
            size="xs"
            leftSection={<IconDownload size={14} aria-hidden />}
            aria-label={t('csvLabel', { title })}
            onClick={() => {
              setError(null);
              downloadReportCsv(company, kind, query).catch((e: unknown) => setError(errorText(e, t)));
            }}
          >
            {t('csv')}
          </Button>
        </Group>
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        {summary}
        {chart && (
          <div role="img" aria-label={t('chartLabel', { title })}>
            {chart}
          </div>
        )}
        {chart ? (
          // A year by day is a table of 366 rows: beside a chart it waits, folded, for whoever wants
          // the figures (a screen reader's way to the chart's content, and the numbers to copy).
          <details data-testid={`${testId}-figures`}>
            <Text component="summary" size="sm" fw={500} style={{ cursor: 'pointer' }} mb="xs">
              {t('figures')}
            </Text>
            {table}
          </details>
        ) : (
          table
        )}
      </Stack>
    </Paper>
  );
}

/** A report's figures: a header row, then a row a bucket (or a breakdown's key) headed by its name. */
function FiguresTable<R>({
  title,
  testId,
  minWidth,
  columns,
  rows,
  rowKey,
  rowHeader,
  cells,
}: {
  title: string;
  testId?: string;
  minWidth: number;
  columns: string[];
  rows: R[];
  rowKey: (row: R) => string | number;
  rowHeader: (row: R) => ReactNode;
  cells: (row: R) => ReactNode[];
}) {
  return (
    <TableScroll minWidth={minWidth}>
      <Table striped withTableBorder data-testid={testId}>
        <Table.Caption>{title}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c} scope="col">
                {c}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              <Table.Th scope="row">{rowHeader(row)}</Table.Th>
              {cells(row).map((c, i) => (
                // The columns are fixed: a cell's place is its identity.
                <Table.Td key={i}>{c}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
}

interface QueryState {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** A report's loading and error states; its figures once they are here. */
function States({ query, children }: { query: QueryState; children: () => ReactNode }) {
  const { t } = useReportsT();
  if (query.isPending) return <ListLoading rows={3} />;
  if (query.isError)
    return <ListError message={errorText(query.error, t)} onRetry={() => void query.refetch()} />;
  return <>{children()}</>;
}

function bucketHeader(t: ReturnType<typeof useReportsT>['t'], query: DeskReportQueryRead) {
  return query.granularity === 'week' ? t('bucketWeek') : t('bucketDay');
}

// --- created, solved, backlog

export function VolumeSection({ company, query }: SectionProps) {
  const { t } = useReportsT();
  const report = useVolumeReport(company, query);
  const title = t('volume.title');
  return (
    <States query={report}>
      {() => {
        const r = report.data!;
        return (
          <ReportCard
            title={title}
            testId="report-volume"
            company={company}
            kind="volume"
            query={query}
            summary={
              <Text size="sm">
                {t('volume.summary', {
                  created: r.totals.created,
                  solved: r.totals.solved,
                  start: r.totals.backlogAtStart,
                  end: r.totals.backlogAtEnd,
                })}
              </Text>
            }
            chart={
              <CompositeChart
                h={CHART_HEIGHT}
                data={r.buckets}
                dataKey="start"
                withLegend
                curveType="linear"
                maxBarWidth={24}
                series={[
                  { name: 'created', label: t('volume.created'), color: 'blue.6', type: 'bar' },
                  { name: 'solved', label: t('volume.solved'), color: 'teal.6', type: 'bar' },
                  { name: 'backlog', label: t('volume.backlog'), color: 'orange.6', type: 'line' },
                ]}
              />
            }
            table={
              <FiguresTable
                title={title}
                testId="report-volume-table"
                minWidth={420}
                columns={[
                  bucketHeader(t, query),
                  t('volume.created'),
                  t('volume.solved'),
                  t('volume.backlog'),
                ]}
                rows={r.buckets}
                rowKey={(b) => b.start}
                rowHeader={(b) => b.start}
                cells={(b) => [b.created, b.solved, b.backlog]}
              />
            }
          />
        );
      }}
    </States>
  );
}

// --- times

const hours = (minutes: number | null) => (minutes === null ? null : Math.round((minutes / 60) * 10) / 10);
const share = (s: TimeStat) =>
  s.withTarget === 0 ? '–' : `${Math.round((100 * s.met) / s.withTarget)} % (${s.met}/${s.withTarget})`;
const cell = (v: number | null) => (v === null ? '–' : String(v));

export function TimesSection({ company, query }: SectionProps) {
  const { t } = useReportsT();
  const report = useTimesReport(company, query);
  const title = t('times.title');
  return (
    <States query={report}>
      {() => {
        const r = report.data!;
        const data = r.buckets.map((b) => ({
          start: b.start,
          frMedian: hours(b.firstResponse.median),
          frP90: hours(b.firstResponse.p90),
          resMedian: hours(b.resolution.median),
          resP90: hours(b.resolution.p90),
        }));
        return (
          <ReportCard
            title={title}
            testId="report-times"
            company={company}
            kind="times"
            query={query}
            summary={
              <Text size="sm" c="dimmed">
                {t('times.note')} {!r.targets.enabled && t('times.targetsOff')}
              </Text>
            }
            chart={
              <LineChart
                h={CHART_HEIGHT}
                data={data}
                dataKey="start"
                withLegend
                connectNulls={false}
                unit=" h"
                series={[
                  { name: 'frMedian', label: t('times.frMedian'), color: 'blue.6' },
                  { name: 'frP90', label: t('times.frP90'), color: 'blue.3' },
                  { name: 'resMedian', label: t('times.resMedian'), color: 'grape.6' },
                  { name: 'resP90', label: t('times.resP90'), color: 'grape.3' },
                ]}
              />
            }
            table={
              <FiguresTable
                title={title}
                testId="report-times-table"
                minWidth={900}
                columns={[bucketHeader(t, query), ...timeColumns(t)]}
                rows={r.buckets}
                rowKey={(b) => b.start}
                rowHeader={(b) => b.start}
                cells={(b) => [...timeCells(b.firstResponse), ...timeCells(b.resolution)]}
              />
            }
          />
        );
      }}
    </States>
  );
}

/** The four figures of a time (count, median and p90 in hours, share on time), as a table's cells. */
const timeCells = (s: TimeStat): ReactNode[] => [
  s.count,
  cell(hours(s.median)),
  cell(hours(s.p90)),
  share(s),
];

const timeColumns = (t: ReturnType<typeof useReportsT>['t']) => [
  t('times.frCount'),
  t('times.frMedian'),
  t('times.frP90'),
  t('times.frMet'),
  t('times.resCount'),
  t('times.resMedian'),
  t('times.resP90'),
  t('times.resMet'),
];

// --- ratings

export function RatingsSection({ company, query }: SectionProps) {
  const { t } = useReportsT();
  const report = useRatingsReport(company, query);
  const title = t('ratings.title');
  return (
    <States query={report}>
      {() => {
        const r = report.data!;
        const lowLabel = t('ratings.low', { threshold: r.lowThreshold });
        return (
          <ReportCard
            title={title}
            testId="report-ratings"
            company={company}
            kind="ratings"
            query={query}
            chart={
              <CompositeChart
                h={CHART_HEIGHT}
                data={r.buckets}
                dataKey="start"
                withLegend
                withRightYAxis
                maxBarWidth={24}
                rightYAxisProps={{ domain: [0, 5] }}
                series={[
                  { name: 'count', label: t('ratings.count'), color: 'blue.4', type: 'bar' },
                  { name: 'low', label: lowLabel, color: 'red.6', type: 'bar' },
                  {
                    name: 'average',
                    label: t('ratings.average'),
                    color: 'yellow.7',
                    type: 'line',
                    yAxisId: 'right',
                  },
                ]}
              />
            }
            table={
              <FiguresTable
                title={title}
                testId="report-ratings-table"
                minWidth={420}
                columns={[bucketHeader(t, query), t('ratings.count'), t('ratings.average'), lowLabel]}
                rows={r.buckets}
                rowKey={(b) => b.start}
                rowHeader={(b) => b.start}
                cells={(b) => [b.count, cell(b.average), b.low]}
              />
            }
          />
        );
      }}
    </States>
  );
}

// --- breakdown

const keyName = (k: ReportKey, none: string) => (k.id === null ? none : k.name || String(k.id));

export function BreakdownSection({ company, query, by }: SectionProps & { by: ReportBreakdown }) {
  const { t } = useReportsT();
  const volume = useVolumeReport(company, query);
  const times = useTimesReport(company, query);
  const ratings = useRatingsReport(company, query);
  const byLabel = t(by).toLowerCase();
  const none = t('none');
  return (
    <>
      <States query={volume}>
        {() => {
          const b = volume.data!.breakdown;
          if (!b) return null;
          const title = t('by.title', { report: t('volume.title'), by: byLabel });
          const rows = b.rows.map((x) => ({ ...x, name: keyName(x.key, none) }));
          return (
            <ReportCard
              title={title}
              testId="report-by-volume"
              company={company}
              kind="volume"
              query={query}
              summary={b.more && <Text size="sm">{t('by.more')}</Text>}
              chart={
                <BarChart
                  h={Math.max(160, 36 * rows.length + 60)}
                  data={rows}
                  dataKey="name"
                  orientation="vertical"
                  withLegend
                  yAxisProps={{ width: 140 }}
                  series={[
                    { name: 'created', label: t('volume.created'), color: 'blue.6' },
                    { name: 'solved', label: t('volume.solved'), color: 'teal.6' },
                    { name: 'backlog', label: t('volume.backlog'), color: 'orange.6' },
                  ]}
                />
              }
              table={
                <FiguresTable
                  title={title}
                  testId="report-by-volume-table"
                  minWidth={420}
                  columns={[t(by), t('volume.created'), t('volume.solved'), t('volume.backlog')]}
                  rows={rows}
                  rowKey={(x) => x.key.id ?? 'none'}
                  rowHeader={(x) => x.name}
                  cells={(x) => [x.created, x.solved, x.backlog]}
                />
              }
            />
          );
        }}
      </States>
      <States query={times}>
        {() => {
          const b = times.data!.breakdown;
          if (!b) return null;
          const title = t('by.title', { report: t('times.title'), by: byLabel });
          return (
            <ReportCard
              title={title}
              testId="report-by-times"
              company={company}
              kind="times"
              query={query}
              table={
                <FiguresTable
                  title={title}
                  minWidth={900}
                  columns={[t(by), ...timeColumns(t)]}
                  rows={b.rows}
                  rowKey={(x) => x.key.id ?? 'none'}
                  rowHeader={(x) => keyName(x.key, none)}
                  cells={(x) => [...timeCells(x.firstResponse), ...timeCells(x.resolution)]}
                />
              }
            />
          );
        }}
      </States>
      <States query={ratings}>
        {() => {
          const r = ratings.data!;
          const b = r.breakdown;
          if (!b) return null;
          const title = t('by.title', { report: t('ratings.title'), by: byLabel });
          return (
            <ReportCard
              title={title}
              testId="report-by-ratings"
              company={company}
              kind="ratings"
              query={query}
              table={
                <FiguresTable
                  title={title}
                  minWidth={420}
                  columns={[
                    t(by),
                    t('ratings.count'),
                    t('ratings.average'),
                    t('ratings.low', { threshold: r.lowThreshold }),
                  ]}
                  rows={b.rows}
                  rowKey={(x) => x.key.id ?? 'none'}
                  rowHeader={(x) => keyName(x.key, none)}
                  cells={(x) => [x.count, cell(x.average), x.low]}
                />
              }
            />
          );
        }}
      </States>
    </>
  );
}
