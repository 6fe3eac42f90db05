/**
 * Entities that take `{uploadId}` (an earlier upload) instead of inline bytes: the upload is claimed
 * in the change's transaction, so a failed change leaves it unattached (and the sweeper still takes
 * it after 24 hours), and one upload is attached to one thing only.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { queryRows, tsParam } from './sql-json';

/** Who uploaded: the same staff user or the same API key that makes the change. */
export type Uploader = { portalId: number } & (
  { type: 'api_key'; apiKeyId: number } | { type: 'staff'; staffUserId: number }
);

export interface ClaimedUpload {
  id: number;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
}

/**
 * Marks the caller's unattached upload `fileId` of the portal as attached; undefined when it is not
 * one (another portal's, another uploader's, attached already, or swept).
 */
export async function claimUpload(
  tx: Tx,
  who: Uploader,
  fileId: number,
  now: Date,
): Promise<ClaimedUpload | undefined> {
  const owner =
    who.type === 'staff'
      ? sql`uploaded_by_staff_id = ${who.staffUserId}::int`
      : sql`uploaded_by_api_key_id = ${who.apiKeyId}::int`;
  const rows = await queryRows<{
    id: number;
    name: string;
    content_type: string;
    size: number;
    sha256: string;
  }>(
    tx,
    sql`update files set attached_at = ${tsParam(now)}
      where id = ${fileId}::int and portal_id = ${who.portalId}::int and ${owner} and attached_at is null
      returning id, name, content_type, size, sha256`,
  );
  const r = rows[0];
  return (
    r && {
      id: Number(r.id),
      name: r.name,
      contentType: r.content_type,
      size: Number(r.size),
      sha256: r.sha256,
    }
  );
}

/** Whether the bytes are an image a header can show whatever its name says: PNG, JPEG, GIF, WebP. */
export function isRasterImage(b: Buffer): boolean {
  const at = (offset: number, ...bytes: number[]) => bytes.every((v, i) => b[offset + i] === v);
  return (
    at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a) ||
    at(0, 0xff, 0xd8, 0xff) ||
    at(0, 0x47, 0x49, 0x46, 0x38) ||
    (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50))
  );
}
