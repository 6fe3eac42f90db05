import { staffBellRoutes, staffSavedViewRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { bellCount, bellList, bellMarkRead } from './bell.service';
import {
  createSavedView,
  deleteSavedView,
  listSavedViews,
  shareSavedView,
  updateSavedView,
} from './saved-views.service';
import { portalOf } from './staff.access';

/** The desk's bell and the inbox's saved views (issue 28 items 2 and 5). */
export function registerBellRoutes(app: App, ctx: AppContext): void {
  const bell = staffBellRoutes;
  route(app, ctx, bell.list, (req, _reply, staff) => bellList(ctx, portalOf(staff), req.query));
  route(app, ctx, bell.count, (_req, _reply, staff) => bellCount(ctx, portalOf(staff)));
  route(app, ctx, bell.markRead, (req, _reply, staff) => bellMarkRead(ctx, portalOf(staff), req.body));

  const views = staffSavedViewRoutes;
  route(app, ctx, views.list, (_req, _reply, staff) => listSavedViews(ctx, portalOf(staff)));
  route(app, ctx, views.create, (req, _reply, staff) => createSavedView(ctx, portalOf(staff), req.body));
  route(app, ctx, views.update, (req, _reply, staff) =>
    updateSavedView(ctx, portalOf(staff), req.params.viewid, req.body),
  );
  route(app, ctx, views.remove, async (req, _reply, staff) => {
    await deleteSavedView(ctx, portalOf(staff), req.params.viewid);
  });
  route(app, ctx, views.share, (req, _reply, staff) =>
    shareSavedView(ctx, portalOf(staff), req.params.viewid, req.body.shared),
  );
}
