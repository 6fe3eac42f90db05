import type { AppContext } from '../../platform/context';

/** Placeholder until the importer lands. */
export async function loadDemoDataIfEmpty(ctx: AppContext): Promise<boolean> {
  void ctx;
  return false;
}
