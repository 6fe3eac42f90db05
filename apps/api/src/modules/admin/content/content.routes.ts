/**
 * The desk's content section (pickers, a company's documents) and signature requests, under the
 * integration API (a key) and the staff admin root (a staff admin): thin routes over the services.
 */
import {
  contentStaffRoutes,
  PUBLIC_FILES_MAX,
  signatureKeyRoutes,
  signatureStaffRoutes,
} from '@sportello/contracts';
import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../../platform/context';
import { notFound } from '../../../platform/errors';
import { contentDisposition } from '../../../platform/files';
import { route } from '../../../platform/route';
import { idemOf, keyActor, send, staffActor } from '../entities/entities.routes';
import type { Actor } from '../entities/entities.service';
import { listPublicFileEntities } from '../entities/entities.queries';
import { companyContacts, companyItems, companyRow, findCompanies } from './content.queries';
import {
  cancelSignatureRequest,
  createSignatureRequest,
  getSignatureRequest,
  listSignatureRequests,
  signedPdf,
} from './signatures.service';

const keyOf = (params: Record<string, unknown>) => params.documentkey as string;

async function sendSigned(ctx: AppContext, actor: Actor, key: string, reply: FastifyReply) {
  const { file, stream } = await signedPdf(ctx, actor, key);
  return reply
    .header('Content-Type', 'application/pdf')
    .header('Content-Disposition', contentDisposition('attachment', file.name))
    .header('Content-Length', String(file.size))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', "default-src 'none'; sandbox")
    .header('Cache-Control', 'private, no-store')
    .send(stream);
}

export function registerContentRoutes(app: App, ctx: AppContext): void {
  const k = signatureKeyRoutes;
  route(app, ctx, k.createSignatureRequest, async (req, reply, key) =>
    send(
      reply,
      await createSignatureRequest(
        ctx,
        keyActor(key),
        req.body,
        idemOf(req.headers, k.createSignatureRequest.path),
      ),
    ),
  );
  route(app, ctx, k.signatureRequests, (req, _r, key) =>
    listSignatureRequests(ctx, keyActor(key), req.query),
  );
  route(app, ctx, k.signatureRequest, (req, _r, key) =>
    getSignatureRequest(ctx, keyActor(key), keyOf(req.params)),
  );
  route(app, ctx, k.cancelSignatureRequest, (req, _r, key) =>
    cancelSignatureRequest(ctx, keyActor(key), keyOf(req.params)),
  );
  route(app, ctx, k.signedPdf, (req, reply, key) => sendSigned(ctx, keyActor(key), keyOf(req.params), reply));

  const s = signatureStaffRoutes;
  route(app, ctx, s.createSignatureRequest, async (req, reply, st) =>
    send(reply, await createSignatureRequest(ctx, staffActor(st), req.body)),
  );
  route(app, ctx, s.signatureRequests, (req, _r, st) =>
    listSignatureRequests(ctx, staffActor(st), req.query),
  );
  route(app, ctx, s.signatureRequest, (req, _r, st) =>
    getSignatureRequest(ctx, staffActor(st), keyOf(req.params)),
  );
  route(app, ctx, s.cancelSignatureRequest, (req, _r, st) =>
    cancelSignatureRequest(ctx, staffActor(st), keyOf(req.params)),
  );
  route(app, ctx, s.signedPdf, (req, reply, st) => sendSigned(ctx, staffActor(st), keyOf(req.params), reply));

  const c = contentStaffRoutes;
  const companyOf = async (portalId: number, id: number) => {
    const row = await companyRow(ctx.database.db, portalId, id);
    if (row === undefined) throw notFound(`The portal has no company ${id}`, 'entity_not_found');
    return row;
  };
  route(app, ctx, c.companies, (req, _r, st) =>
    findCompanies(ctx.database.db, staffActor(st).portalId, req.query.q),
  );
  route(app, ctx, c.contacts, async (req, _r, st) =>
    companyContacts(ctx.database.db, await companyOf(staffActor(st).portalId, req.params.id)),
  );
  route(app, ctx, c.publicFiles, async (_req, _r, st) => ({
    items: await listPublicFileEntities(ctx.database.db, staffActor(st).portalId, PUBLIC_FILES_MAX),
  }));
  route(app, ctx, c.items, async (req, _r, st) =>
    companyItems(
      ctx.database.db,
      await companyOf(staffActor(st).portalId, req.params.id),
      req.query.kind,
      req.query.cursor,
      req.query.limit,
    ),
  );
}
