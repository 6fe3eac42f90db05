import { portals } from '../../db/schema';
import type { AppContext } from '../../platform/context';
import { loadDemoStaff } from './demo-staff';
import { importDocument } from './import.service';

async function hasPortals(ctx: AppContext): Promise<boolean> {
  const rows = await ctx.database.db.select({ id: portals.id }).from(portals).limit(1);
  return rows.length > 0;
}

/**
 * Fills an empty database with the demo portal (DEMO_DATA, on by default) and answers whether it did.
 * A database with any portal is left alone.
 */
export async function loadDemoDataIfEmpty(ctx: AppContext): Promise<boolean> {
  if (await hasPortals(ctx)) return false;
  // The demo's builder draws its PDFs with pdf-lib: loaded only when there is a demo to load.
  const { buildDemoDocument, DEMO_PASSWORD, DEMO_PORTAL_KEY } = await import('./demo-data');
  try {
    await importDocument(ctx, await buildDemoDocument(ctx.clock.now()));
    // The import format has no staff accounts: the demo's desk accounts are added beside it.
    await loadDemoStaff(ctx.database.db, DEMO_PORTAL_KEY, DEMO_PASSWORD, ctx.clock.now());
    return true;
  } catch (e) {
    // Several processes starting on one empty PostgreSQL: one of them loads it, the others step aside.
    if (await hasPortals(ctx)) return false;
    throw e;
  }
}
