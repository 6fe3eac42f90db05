import type { Tx } from '../../db/client';
import { queryRows } from '../../platform/sql-json';
import { sql } from 'drizzle-orm';

/** A file of the portal, for the integration download. */
export async function findPortalFile(
  db: Tx | Parameters<typeof queryRows>[0],
  portalId: number,
  fileId: number,
): Promise<{ id: number; sha256: string; name: string; contentType: string; size: number } | undefined> {
  const rows = await queryRows<{
    id: number;
    sha256: string;
    name: string;
    content_type: string;
    size: number;
  }>(
    db,
    sql`select id, sha256, name, content_type, size from files
      where id = ${fileId}::int and portal_id = ${portalId}::int`,
  );
  const r = rows[0];
  return (
    r && {
      id: Number(r.id),
      sha256: r.sha256,
      name: r.name,
      contentType: r.content_type,
      size: Number(r.size),
    }
  );
}
