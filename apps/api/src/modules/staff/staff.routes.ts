import { registerAccessRoutes } from './access.routes';
import { registerContextRoutes } from './context.routes';
import { registerMacroRoutes } from './macros.routes';
import { registerBellRoutes } from './bell.routes';
import { registerSlaRoutes } from './sla.routes';
import { registerTriageGroupRoutes } from './triage-group.routes';
import { staffAuthRoutes, staffDeskRoutes, staffInboxRoutes, staffMergeRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { sendJsonText } from '../../platform/answer-cache';
import { portalOf } from './staff.access';
import { inbox, quickSearch, staffTicket } from './inbox.service';
import {
  addStaffComment,
  bulkChange,
  members,
  options,
  preferences,
  presence,
  setMemberGroups,
  setPreferences,
  setTicketRead,
  staffUpload,
  unread,
  updateStaffTicket,
} from './desk.service';
import {
  checkStaffLink,
  confirmStaffLink,
  staffLogin,
  staffLogout,
  staffMe,
  staffRecovery,
} from './staff.service';
import { deskCachesOf } from './desk-cache';
import { registerReportRoutes } from './reports.routes';
import { profile, setProfile } from './profile.service';
import { mergeState, mergeTicket, undoMerge } from './merge.service';
import { logTime, ticketTime } from './time.service';

const STAFF_URL = /^\/api\/staff(\/|$|\?)/i;

export function registerStaffRoutes(app: App, ctx: AppContext): void {
  registerAccessRoutes(app, ctx);
  registerMacroRoutes(app, ctx);
  registerBellRoutes(app, ctx);
  registerSlaRoutes(app, ctx);
  registerTriageGroupRoutes(app, ctx);
  registerContextRoutes(app, ctx);
  registerReportRoutes(app, ctx);
  // Nothing of a staff session or a staff answer may be cached by a browser or a proxy. A change made
  // through this process is committed when its answer leaves: the desk's kept answers are cleared at
  // once, so the writer's next page reads again without waiting for the NOTIFY. A callback hook: it
  // runs on every answer of the app and needs no promise.
  const kept = deskCachesOf(ctx.database);
  app.addHook('onSend', (req, reply, payload, done) => {
    if (STAFF_URL.test(req.url)) reply.header('Cache-Control', 'no-store');
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS') kept.clear();
    done(null, payload);
  });

  route(app, ctx, staffAuthRoutes.login, (req) => staffLogin(ctx, req.body.email, req.body.password, req.ip));
  route(app, ctx, staffAuthRoutes.logout, async (_req, _reply, staff) => {
    await staffLogout(ctx, staff.sessionId);
  });
  route(app, ctx, staffAuthRoutes.me, (_req, _reply, staff) => staffMe(ctx, staff));
  route(app, ctx, staffAuthRoutes.recovery, async (req) => {
    await staffRecovery(ctx, req.body.email, req.body.company, req.ip);
    return { status: 'sent' as const };
  });
  route(app, ctx, staffAuthRoutes.link, (req) => checkStaffLink(ctx, req.params.token));
  route(app, ctx, staffAuthRoutes.confirm, (req) =>
    confirmStaffLink(ctx, req.body.token, req.body.password, req.body.passwordRepeat),
  );

  route(app, ctx, staffInboxRoutes.list, async (req, reply, staff) =>
    sendJsonText(reply, await inbox(ctx, portalOf(staff), req.query)),
  );
  route(app, ctx, staffInboxRoutes.search, async (req, reply, staff) =>
    sendJsonText(reply, await quickSearch(ctx, portalOf(staff), req.query.q)),
  );
  route(app, ctx, staffInboxRoutes.detail, (req, _reply, staff) =>
    staffTicket(ctx, portalOf(staff), req.params.ticketid),
  );

  const desk = staffDeskRoutes;
  route(app, ctx, desk.comment, (req, _reply, staff) =>
    addStaffComment(ctx, portalOf(staff), req.params.ticketid, req.body),
  );
  route(app, ctx, desk.update, (req, _reply, staff) =>
    updateStaffTicket(ctx, portalOf(staff), req.params.ticketid, req.body),
  );
  route(app, ctx, desk.bulk, (req, _reply, staff) => bulkChange(ctx, portalOf(staff), req.body));
  route(app, ctx, desk.read, async (req, _reply, staff) => {
    await setTicketRead(ctx, portalOf(staff), req.params.ticketid, req.body.read);
  });
  route(app, ctx, desk.presence, (req, _reply, staff) =>
    presence(ctx, portalOf(staff), req.params.ticketid, req.body.state),
  );
  route(app, ctx, desk.upload, (req, _reply, staff) => staffUpload(req, ctx, portalOf(staff)));
  route(app, ctx, desk.options, (_req, _reply, staff) => options(ctx, portalOf(staff)));
  route(app, ctx, desk.unread, (req, _reply, staff) =>
    // A client that went away stops the wait at its next turn.
    unread(ctx, portalOf(staff), req.query, () => req.raw.destroyed),
  );
  route(app, ctx, desk.members, (_req, _reply, staff) => members(ctx, portalOf(staff)));
  route(app, ctx, desk.setGroups, (req, _reply, staff) =>
    setMemberGroups(ctx, portalOf(staff), req.params.staffid, req.body.groupIds),
  );
  route(app, ctx, desk.preferences, (_req, _reply, staff) => preferences(ctx, staff));
  route(app, ctx, desk.setPreferences, (req, _reply, staff) => setPreferences(ctx, staff, req.body));
  route(app, ctx, desk.profile, (_req, _reply, staff) => profile(ctx, portalOf(staff)));
  route(app, ctx, desk.setProfile, (req, _reply, staff) => setProfile(ctx, portalOf(staff), req.body));

  const merge = staffMergeRoutes;
  route(app, ctx, merge.state, (req, _reply, staff) => mergeState(ctx, portalOf(staff), req.params.ticketid));
  route(app, ctx, merge.merge, (req, _reply, staff) =>
    mergeTicket(ctx, portalOf(staff), req.params.ticketid, req.body.targetId),
  );
  route(app, ctx, merge.undo, (req, _reply, staff) => undoMerge(ctx, portalOf(staff), req.params.ticketid));
  route(app, ctx, merge.time, (req, _reply, staff) => ticketTime(ctx, portalOf(staff), req.params.ticketid));
  route(app, ctx, merge.logTime, (req, _reply, staff) =>
    logTime(ctx, portalOf(staff), req.params.ticketid, req.body),
  );
}
