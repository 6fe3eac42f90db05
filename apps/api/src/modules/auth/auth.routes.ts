import { authRoutes } from '@sportello/contracts';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { viewAsOf } from '../../platform/view-session';
import { registerAccountRoutes } from './account.routes';
import {
  changePassword,
  checkLink,
  confirm,
  finishSecondFactor,
  login,
  logout,
  me,
  passkeyLoginOptions,
  requestRecovery,
} from './auth.service';

/** Where a new session comes from, as its owner will see it in the profile. */
export const clientOf = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

export function registerAuthRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, authRoutes.login, (req) =>
    login(ctx, req.body.userName, req.body.password, {
      ...clientOf(req),
      remember: req.body.remember ?? false,
    }),
  );
  route(app, ctx, authRoutes.secondFactor, (req) => finishSecondFactor(ctx, req.body, clientOf(req)));
  route(app, ctx, authRoutes.passkeyLoginOptions, (req) => passkeyLoginOptions(ctx, req.body.ticket));
  route(app, ctx, authRoutes.logout, async (_req, _reply, user) => {
    await logout(ctx, user.sessionId);
  });
  route(app, ctx, authRoutes.me, (_req, _reply, user) =>
    me(ctx, user.userId, user.sessionId, viewAsOf(user)),
  );
  route(app, ctx, authRoutes.recovery, async (req) => {
    await requestRecovery(ctx, req.body, req.ip);
    return { status: 'sent' as const };
  });
  route(app, ctx, authRoutes.link, (req) => checkLink(ctx, req.params.token));
  route(app, ctx, authRoutes.confirm, (req) =>
    confirm(ctx, req.body.token, req.body.password, req.body.passwordRepeat, clientOf(req)),
  );
  route(app, ctx, authRoutes.password, (req, _reply, user) =>
    changePassword(ctx, user, req.body.currentPassword, req.body.newPassword, clientOf(req)),
  );
  registerAccountRoutes(app, ctx);
}
