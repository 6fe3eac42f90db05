/**
 * Completes the document @fastify/swagger generates from the registered schemas with what only the
 * route contracts know: the common error answers every route of a shape can give (as shared
 * `components.responses`), answers without a body (204), file answers (bytes), and multipart
 * request bodies. `openapi.test.ts` validates the result with an OpenAPI validator.
 */
import { errorSchema, isBinaryAnswer, statusesOf, type RouteContract } from '@sportello/contracts';
import { STATUS_CODES } from 'node:http';
import { z } from 'zod';

/** What each common error answer means; the codes are those of contracts/errors.ts. */
const errorDescriptions: Record<number, string> = {
  400: 'Bad request: the input does not match the schema (`validation_error`, listing `errors`) or a rule of the route',
  401: 'No valid credential (`unauthorized`, `invalid_token`)',
  403: 'Not allowed (`not_your_contact`, `not_your_portal`, `missing_permission`, …)',
  404: 'Not found',
  409: 'In conflict with the current state',
  410: 'Gone: the link has expired',
  413: 'The body or the file is larger than the route accepts (`payload_too_large`)',
  414: 'A path parameter is too long',
  415: 'The body is not of a media type the route accepts',
  429: 'Too many requests: `Retry-After` says when to try again',
  500: 'A fault of the server (`internal_error`); details are in its log',
  503: 'The server or its database cannot answer now (`Retry-After` when known)',
  507: 'The server has no room to store the upload now (`insufficient_storage`)',
};

/** The upload routes' rule, as the document states it on each (platform/uploads.ts enforces it). */
export const ONE_FILE_RULE =
  'One file per request, in the multipart field `file`: a second file part is 400 `one_file_only`, no ' +
  'file part 400 `file_required`; a file over MAX_UPLOAD_MB is 413 `payload_too_large`.';

interface Operation {
  responses?: Record<string, { description?: string } & Record<string, unknown>>;
  requestBody?: unknown;
}
type Document = {
  paths?: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, unknown>>;
} & Record<string, unknown>;

/** `/api/:company/x` → `/api/{company}/x`, as @fastify/swagger writes paths. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

export function finishOpenApi(generated: object, contracts: readonly RouteContract[]): Document {
  const doc = structuredClone(generated) as Document;
  const components = (doc.components ??= {});
  const schemas = (components.schemas ??= {});
  const responses = (components.responses ??= {});
  schemas.ApiError = z.toJSONSchema(errorSchema, { target: 'openapi-3.0' });
  delete (schemas.ApiError as Record<string, unknown>).$schema;
  /** The shared answer of an error status, made on first use. */
  const errorRef = (status: number) => {
    responses[`Error${status}`] ??= {
      description: errorDescriptions[status] ?? STATUS_CODES[status] ?? 'Error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
    };
    return { $ref: `#/components/responses/Error${status}` };
  };

  for (const c of contracts) {
    if (c.hide) continue;
    const op = doc.paths?.[openApiPath(c.path)]?.[c.method.toLowerCase()];
    if (!op) continue; // openapi.test.ts names a contract missing from the document
    const answers = (op.responses ??= {});
    for (const status of statusesOf(c)) {
      const declared = c.responses[status];
      if (status >= 400 && (declared === undefined || declared === errorSchema)) {
        answers[status] = errorRef(status);
      } else if (declared === null) {
        answers[status] = { description: 'No content' };
      } else if (isBinaryAnswer(declared)) {
        const type = declared.contentType ?? 'application/octet-stream';
        answers[status] = {
          description: declared.description,
          content: {
            [type]: {
              schema: type.startsWith('text/') ? { type: 'string' } : { type: 'string', format: 'binary' },
            },
          },
        };
      } else if (
        answers[status] &&
        (!answers[status].description || answers[status].description === 'Default Response')
      ) {
        answers[status].description = status < 300 ? 'Success' : (errorDescriptions[status] ?? 'Error');
      }
      // A JSON answer under another media type (the web manifest): the same schema, its real type.
      const content = answers[status]?.content as Record<string, unknown> | undefined;
      if (c.answerType && status < 300 && content?.['application/json']) {
        answers[status]!.content = { [c.answerType]: content['application/json'] };
      }
    }
    if (c.bodyKind === 'multipart') {
      op.requestBody = {
        required: true,
        description: ONE_FILE_RULE,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: { file: { type: 'string', format: 'binary', description: 'The one file' } },
              additionalProperties: false,
            },
            encoding: { file: { contentType: '*/*' } },
          },
        },
      };
    }
  }
  return doc;
}
