import { staffMacroRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { portalOf } from './staff.access';
import {
  changeMacro,
  createMacro,
  macros,
  removeMacro,
  renderMacro,
  replyWithActions,
} from './macros.service';

/** The desk's canned replies (issue 28 item 6). */
export function registerMacroRoutes(app: App, ctx: AppContext): void {
  const r = staffMacroRoutes;
  route(app, ctx, r.list, (req, _reply, staff) => macros(ctx, portalOf(staff), req.query));
  route(app, ctx, r.create, (req, _reply, staff) => createMacro(ctx, portalOf(staff), req.body));
  route(app, ctx, r.update, (req, _reply, staff) =>
    changeMacro(ctx, portalOf(staff), req.params.macroid, req.body),
  );
  route(app, ctx, r.remove, async (req, _reply, staff) => {
    await removeMacro(ctx, portalOf(staff), req.params.macroid);
  });
  route(app, ctx, r.render, (req, _reply, staff) =>
    renderMacro(ctx, portalOf(staff), req.params.ticketid, req.params.macroid),
  );
  route(app, ctx, r.reply, (req, _reply, staff) =>
    replyWithActions(ctx, portalOf(staff), req.params.ticketid, req.body),
  );
}
