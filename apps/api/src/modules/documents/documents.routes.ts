import { documentRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { contactDocuments, publicFiles, uploadContactDocument } from './documents.service';

export function registerDocumentsRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, documentRoutes.list, (_req, _reply, tenant) => contactDocuments(ctx, tenant));
  route(app, ctx, documentRoutes.upload, (req, _reply, tenant) =>
    uploadContactDocument(req as never, ctx, tenant),
  );
  route(app, ctx, documentRoutes.publicFiles, (_req, _reply, portal) => publicFiles(ctx, portal.portalId));
}
