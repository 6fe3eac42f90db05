// Schemas of the wiki area: requests and answers, shared by the API and the web app.
import { z } from 'zod';
import { tenantParams } from './common';
import { defineRoute } from './route';

/** `GET …/wikielements?filter=` : element names containing `filter`, case-insensitively. */
export const wikiQuerySchema = z.object({ filter: z.string().max(200).optional() });
export type WikiQuery = z.infer<typeof wikiQuerySchema>;

export const wikiDataTypeSchema = z.enum(['text', 'number', 'date', 'bool', 'url', 'file']);
export type WikiDataType = z.infer<typeof wikiDataTypeSchema>;

export const wikiPropertySchema = z.object({
  id: z.number().int(),
  typologyName: z.string(),
  dataType: wikiDataTypeSchema,
  /** The value as text (for a file: its name). */
  value: z.string().nullable(),
  /** Signed URL for `file` properties; null otherwise. */
  url: z.string().nullable(),
});
export type WikiProperty = z.infer<typeof wikiPropertySchema>;

/**
 * One wiki element (asset) with its folder, properties and the service contracts listing it. Also the
 * item of the server-search dropdown, shown as 'folderName - name'.
 */
export const wikiElementSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  wikiFolderId: z.number().int(),
  folderName: z.string(),
  properties: z.array(wikiPropertySchema),
  contracts: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type WikiElement = z.infer<typeof wikiElementSchema>;
export const wikiElementListSchema = z.array(wikiElementSchema);

// --- Routes (see route.ts) ---

export const wikiRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/:company/:contactid/wikielements',
    params: tenantParams,
    query: wikiQuerySchema,
    responses: { 200: wikiElementListSchema },
    access: { guard: 'tenant', flag: 'viewContactWiki' },
    tags: ['wiki'],
    summary: "The company's wiki elements with properties (file links signed) and associated contracts",
    description:
      'Also the server-search dropdown of the wiki pickers: `filter` matches element names ' +
      '(case-insensitive substring); items read `folderName - name`.',
  }),
};
