import { platformRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { health, ready } from './health.service';

export function registerHealthRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, platformRoutes.health, () => health(ctx));
  route(app, ctx, platformRoutes.ready, () => ready(ctx));
}
