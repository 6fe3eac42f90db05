/**
 * The file of an entity changed one by one (entities.ts, entities-catalog.ts): as the API shows it,
 * and as a change gives it (inline bytes as the import does, or an earlier upload of the caller).
 */
import { z } from 'zod';
import { rowIdSchema } from './common';
import { fileRefSchema } from './admin';

/** A file of an entity as the API shows it (its bytes: `GET /api/integration/v1/files/:id`). */
export const entityFileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  contentType: z.string(),
  size: z.number().int(),
});
/**
 * A file uploaded before the change by the same caller and not attached yet: a staff user's upload
 * (`POST /api/staff/portals/:company/uploads`) on the staff routes, the key's own upload
 * (`POST /api/integration/v1/files`) on the key routes. The change attaches it (once); an upload
 * never attached still expires after 24 hours. Anything else is 422 `upload_not_found`.
 */
export const uploadedFileRefSchema = z.strictObject({ uploadId: rowIdSchema });
/**
 * The file of an entity: inline as the import does (`{name, contentType, base64}`, at most
 * MAX_UPLOAD_MB decoded, 413 otherwise) or `{uploadId}` of an earlier upload (large files, progress).
 */
export const entityFileInputSchema = z.union([uploadedFileRefSchema, fileRefSchema]);
export type EntityFileInput = z.infer<typeof entityFileInputSchema>;
