import { ticketSetupRoutes } from '@sportello/contracts';
import type { StaffActor } from '../../../platform/audit';
import type { App, AppContext } from '../../../platform/context';
import { route } from '../../../platform/route';
import { createItem, deleteItem, updateItem } from './ticket-setup.service';

/** The staff guard resolved the `:company` portal and the admin role in it (as people.routes.ts). */
interface StaffPortal {
  staffUserId: number;
  displayName: string;
  portal: { portalId: number } | null;
}
const actorOf = (s: StaffPortal): StaffActor => {
  if (!s.portal) throw new Error('staff admin route without :company');
  return { staffUserId: s.staffUserId, displayName: s.displayName, portalId: s.portal.portalId };
};

export function registerTicketSetupRoutes(app: App, ctx: AppContext): void {
  for (const kind of ['types', 'steps', 'groups'] as const) {
    const r = ticketSetupRoutes[kind];
    route(app, ctx, r.create, async (req, reply, s) => {
      const item = await createItem(ctx, actorOf(s), kind, req.body);
      return reply.code(201).send(item);
    });
    // The image is the contract's answer of this kind (SPECS in the service builds it per kind).
    route(
      app,
      ctx,
      r.update,
      async (req, _reply, s) => (await updateItem(ctx, actorOf(s), kind, req.params.id, req.body)) as never,
    );
    route(app, ctx, r.remove, async (req, reply, s) => {
      await deleteItem(ctx, actorOf(s), kind, req.params.id);
      return reply.code(204).send();
    });
  }
}
