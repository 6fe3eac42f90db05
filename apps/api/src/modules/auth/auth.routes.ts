import { authRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { changePassword, checkLink, confirm, login, logout, me, requestRecovery } from './auth.service';

export function registerAuthRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, authRoutes.login, (req) => login(ctx, req.body.userName, req.body.password, req.ip));
  route(app, ctx, authRoutes.logout, async (_req, _reply, user) => {
    await logout(ctx, user.sessionId);
  });
  route(app, ctx, authRoutes.me, (_req, _reply, user) => me(ctx, user.userId));
  route(app, ctx, authRoutes.recovery, async (req) => {
    await requestRecovery(ctx, req.body, req.ip);
    return { status: 'sent' as const };
  });
  route(app, ctx, authRoutes.link, (req) => checkLink(ctx, req.params.token));
  route(app, ctx, authRoutes.confirm, (req) =>
    confirm(ctx, req.body.token, req.body.password, req.body.passwordRepeat),
  );
  route(app, ctx, authRoutes.password, (req, _reply, user) =>
    changePassword(ctx, user.userId, req.body.currentPassword, req.body.newPassword),
  );
}
