import { staffTriageRoutes } from '@sportello/contracts';
import { staffActorOf } from '../../platform/audit';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { setTriageSetting, triageSetting } from './triage-group.service';

/** The portal's triage group (issue 28 item 2): its admins read and choose it. */
export function registerTriageGroupRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, staffTriageRoutes.get, (_req, _reply, staff) => triageSetting(ctx, staffActorOf(staff)));
  route(app, ctx, staffTriageRoutes.put, (req, _reply, staff) =>
    setTriageSetting(ctx, staffActorOf(staff), req.body),
  );
}
