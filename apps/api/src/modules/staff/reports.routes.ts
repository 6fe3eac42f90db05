import { deskReportRoutes } from '@sportello/contracts';
import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { ratingsCsv, ratingsReport, timesCsv, timesReport, volumeCsv, volumeReport } from './reports.service';
import { portalOf } from './staff.access';

const csv = (reply: FastifyReply, name: string, company: string, from: string, to: string, body: string) =>
  reply
    .header('Content-Type', 'text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${name}-${company}-${from}-${to}.csv"`)
    .send(body);

/** The desk's reports (issue 28 item 14): every member of the portal; the agents' figures for admins. */
export function registerReportRoutes(app: App, ctx: AppContext): void {
  const r = deskReportRoutes;
  route(app, ctx, r.volume, (req, _reply, st) => volumeReport(ctx, portalOf(st), req.query));
  route(app, ctx, r.times, (req, _reply, st) => timesReport(ctx, portalOf(st), req.query));
  route(app, ctx, r.ratings, (req, _reply, st) => ratingsReport(ctx, portalOf(st), req.query));
  route(app, ctx, r.volumeCsv, async (req, reply, st) => {
    const q = req.query;
    return csv(
      reply,
      'volume',
      req.params.company,
      q.from,
      q.to,
      volumeCsv(await volumeReport(ctx, portalOf(st), q)),
    );
  });
  route(app, ctx, r.timesCsv, async (req, reply, st) => {
    const q = req.query;
    return csv(
      reply,
      'times',
      req.params.company,
      q.from,
      q.to,
      timesCsv(await timesReport(ctx, portalOf(st), q)),
    );
  });
  route(app, ctx, r.ratingsCsv, async (req, reply, st) => {
    const q = req.query;
    return csv(
      reply,
      'ratings',
      req.params.company,
      q.from,
      q.to,
      ratingsCsv(await ratingsReport(ctx, portalOf(st), q)),
    );
  });
}
