import { accountRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import {
  confirmEmail,
  passkeyAdd,
  passkeyOptions,
  passkeyRemove,
  profile,
  renewRecoveryCodes,
  requestEmailChange,
  sessions,
  signOutEverywhere,
  signOutSession,
  totpConfirm,
  totpDisable,
  totpSetup,
  update,
} from './account.service';

export function registerAccountRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, accountRoutes.profile, (_req, _reply, user) => profile(ctx, user.userId));
  route(app, ctx, accountRoutes.update, (req, _reply, user) => update(ctx, user.userId, req.body));
  route(app, ctx, accountRoutes.email, async (req, _reply, user) => {
    await requestEmailChange(ctx, user.userId, req.body);
    return { status: 'sent' as const };
  });
  route(app, ctx, accountRoutes.emailConfirm, (req) => confirmEmail(ctx, req.body.token));
  route(app, ctx, accountRoutes.sessions, (_req, _reply, user) => sessions(ctx, user));
  route(app, ctx, accountRoutes.endSession, async (req, _reply, user) => {
    await signOutSession(ctx, user.userId, req.params.sessionid);
  });
  route(app, ctx, accountRoutes.endAllSessions, async (_req, _reply, user) => {
    await signOutEverywhere(ctx, user.userId);
  });
  route(app, ctx, accountRoutes.totpSetup, (req, _reply, user) => totpSetup(ctx, user.userId, req.body));
  route(app, ctx, accountRoutes.totpConfirm, (req, _reply, user) =>
    totpConfirm(ctx, user.userId, req.body.code),
  );
  route(app, ctx, accountRoutes.totpDisable, async (req, _reply, user) => {
    await totpDisable(ctx, user.userId, req.body);
  });
  route(app, ctx, accountRoutes.passkeyOptions, (req, _reply, user) =>
    passkeyOptions(ctx, user.userId, req.body),
  );
  route(app, ctx, accountRoutes.passkeyAdd, (req, _reply, user) => passkeyAdd(ctx, user.userId, req.body));
  route(app, ctx, accountRoutes.passkeyRemove, async (req, _reply, user) => {
    await passkeyRemove(ctx, user.userId, req.params.passkeyid, req.body);
  });
  route(app, ctx, accountRoutes.recoveryCodes, (req, _reply, user) =>
    renewRecoveryCodes(ctx, user.userId, req.body),
  );
}
