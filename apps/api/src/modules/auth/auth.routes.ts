import {
  confirmAnswerSchema,
  confirmRequestSchema,
  errorSchema,
  linkCheckAnswerSchema,
  linkParamsSchema,
  loginAnswerSchema,
  loginRequestSchema,
  meAnswerSchema,
  passwordChangeAnswerSchema,
  passwordChangeRequestSchema,
  recoveryAnswerSchema,
  recoveryRequestSchema,
} from '@sportello/contracts';
import { z } from 'zod';
import { requireUser } from '../../platform/auth';
import type { App, AppContext } from '../../platform/context';
import { changePassword, checkLink, confirm, login, logout, me, requestRecovery } from './auth.service';

const secured = [{ bearer: [] }];

export function registerAuthRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  // Nothing about a session may be cached by a browser or a proxy.
  app.addHook('onSend', async (req, reply) => {
    if (/^\/api\/(auth|users\/me)(\/|$|\?)/i.test(req.url)) reply.header('Cache-Control', 'no-store');
  });

  app.post(
    '/api/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with user name or e-mail and password',
        description:
          '401 wrong_credentials for a wrong password and for an unknown user alike. 429 too_many_attempts ' +
          '(with Retry-After) after 5 failures for one account or 30 attempts from one address in 15 minutes.',
        body: loginRequestSchema,
        response: { 200: loginAnswerSchema, 401: errorSchema, 429: errorSchema },
      },
    },
    async (req) => login(ctx, req.body.userName, req.body.password, req.ip),
  );

  app.post(
    '/api/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Revoke the bearer token of this request',
        security: secured,
        response: { 204: z.null(), 401: errorSchema },
      },
    },
    async (req, reply) => {
      const user = await requireUser(req, db, ctx.clock);
      await logout(ctx, user.sessionId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/Users/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user with every contact they hold, its permissions and its portal settings',
        security: secured,
        response: { 200: meAnswerSchema, 401: errorSchema },
      },
    },
    async (req) => {
      const user = await requireUser(req, db, ctx.clock);
      return me(ctx, user.userId);
    },
  );

  app.post(
    '/api/auth/recovery',
    {
      schema: {
        tags: ['auth'],
        summary: 'Mail a single-use password link (valid 1 hour) to the user, if there is one',
        description:
          'Always 202 {status:"sent"}, whether the user exists or not. 429 too_many_attempts when one ' +
          'address or one name asks too often.',
        body: recoveryRequestSchema,
        response: { 202: recoveryAnswerSchema, 429: errorSchema },
      },
    },
    async (req, reply) => {
      await requestRecovery(ctx, req.body.userName, req.body.company, req.ip);
      return reply.code(202).send({ status: 'sent' as const });
    },
  );

  app.get(
    '/api/auth/links/:token',
    {
      schema: {
        tags: ['auth'],
        summary: 'What an invitation or recovery link is for (it is not consumed)',
        params: linkParamsSchema,
        response: { 200: linkCheckAnswerSchema, 404: errorSchema, 410: errorSchema },
      },
    },
    async (req) => checkLink(ctx, req.params.token),
  );

  app.post(
    '/api/auth/confirm',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set the password from an invitation (7 days) or recovery (1 hour) link and sign in',
        description:
          '400 passwords_differ / password_too_short (minimum 10 characters); 404 link_invalid (unknown ' +
          'or used); 410 link_expired. Every earlier session of the user is revoked.',
        body: confirmRequestSchema,
        response: { 200: confirmAnswerSchema, 400: errorSchema, 404: errorSchema, 410: errorSchema },
      },
    },
    async (req) => confirm(ctx, req.body.token, req.body.password, req.body.passwordRepeat),
  );

  app.post(
    '/api/auth/password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Change the password; answers a new token and revokes every other token of the user',
        description:
          '400 wrong_password / password_too_short; 429 too_many_attempts. The token of this request is ' +
          'revoked too: store the returned one.',
        security: secured,
        body: passwordChangeRequestSchema,
        response: { 200: passwordChangeAnswerSchema, 400: errorSchema, 401: errorSchema, 429: errorSchema },
      },
    },
    async (req) => {
      const user = await requireUser(req, db, ctx.clock);
      return changePassword(ctx, user.userId, req.body.currentPassword, req.body.newPassword);
    },
  );
}
