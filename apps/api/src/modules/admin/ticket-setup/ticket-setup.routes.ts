import { ticketSetupRoutes } from '@sportello/contracts';
import { staffActorOf as actorOf } from '../../../platform/audit';
import type { App, AppContext } from '../../../platform/context';
import { route } from '../../../platform/route';
import { createItem, deleteItem, setGroupMembers, updateItem } from './ticket-setup.service';

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
  route(app, ctx, ticketSetupRoutes.groups.members, async (req, _reply, s) =>
    setGroupMembers(ctx, actorOf(s), req.params.id, req.body.staffIds),
  );
}
