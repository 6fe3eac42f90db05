/**
 * The back office answers a ticket: an agent comment written through the integration API. In one
 * transaction: the comment (HTML sanitised as every user's), its attachments, the
 * `agent.comment_added` event (source: the key) and the e-mail to the ticket's creator unless they
 * turned it off; with an Idempotency-Key the answer is stored in that transaction too.
 */
import { sql } from 'drizzle-orm';
import {
  integrationErrorCodes,
  type AgentComment,
  type AgentCommentCreate,
  type IntegrationFile,
} from '@sportello/contracts';
import type { Tx } from '../../db/client';
import { files } from '../../db/schema';
import type { ApiKeyAccess } from '../../platform/api-keys';
import type { AppContext } from '../../platform/context';
import { apiKeySource, emitCommentEvent } from '../../platform/events';
import { badRequest, conflict, notFound } from '../../platform/errors';
import { insertAttachments, insertComment, userHtml } from '../../platform/conversation';
import { payloadTooLarge, type StagedBlob } from '../../platform/files';
import { reserveExtIds } from '../../platform/portal-sequences';
import { kickOutbox } from '../../platform/outbox';
import { queueAgentAnswerEmails } from '../../platform/agent-answer';
import { queryRows } from '../../platform/sql-json';
import { cleanFileName } from '../../platform/uploads';
import {
  claimKeyUploads,
  commentExtIdTaken,
  findOrCreateAgent,
  findPortalTicketForUpdate,
} from './comments.queries';
import { withIdempotency, type Answer } from '../../platform/idempotency';

export const integrationFileUrl = (ctx: AppContext, fileId: number) =>
  `${ctx.config.publicUrl}/api/integration/v1/files/${fileId}`;

const cleanType = (t: string | undefined) =>
  t && /^[\w.+-]{1,100}\/[\w.+-]{1,100}$/.test(t) ? t.toLowerCase() : 'application/octet-stream';

interface InlineFile {
  index: number;
  name: string;
  contentType: string;
  blob: StagedBlob;
}

/** Decodes and stores the base64 attachments before the transaction (bytes are kept only if it commits). */
async function storeInline(ctx: AppContext, body: AgentCommentCreate): Promise<InlineFile[]> {
  const max = ctx.config.MAX_UPLOAD_MB * 1024 * 1024;
  const out: InlineFile[] = [];
  try {
    for (const [index, a] of body.attachments.entries()) {
      if (!('base64' in a)) continue;
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(a.base64.replace(/\s/g, '')))
        throw badRequest(`attachments[${index}].base64: not base64`, 'validation_error');
      const bytes = Buffer.from(a.base64, 'base64');
      if (bytes.length > max) throw payloadTooLarge(max);
      const blob = await ctx.fileStore.stageBuffer(bytes);
      out.push({ index, name: cleanFileName(a.name), contentType: cleanType(a.contentType), blob });
    }
  } catch (e) {
    for (const f of out) ctx.fileStore.discard(f.blob);
    throw e;
  }
  return out;
}

async function insertInlineFiles(
  ctx: AppContext,
  tx: Tx,
  key: ApiKeyAccess,
  inline: InlineFile[],
  now: Date,
): Promise<Map<number, { id: number; name: string }>> {
  const byIndex = new Map<number, { id: number; name: string }>();
  for (const f of inline) {
    await ctx.fileStore.record(tx, f.blob, now);
    const [row] = await tx
      .insert(files)
      .values({
        portalId: key.portalId,
        sha256: f.blob.sha256,
        name: f.name,
        contentType: f.contentType,
        size: f.blob.size,
        uploadedByApiKeyId: key.apiKeyId,
        attachedAt: now,
        createdAt: now,
      })
      .returning({ id: files.id });
    byIndex.set(f.index, { id: row!.id, name: f.name });
  }
  return byIndex;
}

async function attachmentsOf(
  ctx: AppContext,
  tx: Tx,
  commentId: number,
): Promise<AgentComment['attachments']> {
  const rows = await queryRows<{
    ext_id: number;
    id: number;
    name: string;
    content_type: string;
    size: number;
  }>(
    tx,
    sql`select a.ext_id, f.id, a.name, f.content_type, f.size from ticket_attachments a
      join files f on f.id = a.file_id where a.comment_id = ${commentId}::int order by a.ext_id`,
  );
  return rows.map((r): IntegrationFile & { attachmentId: number } => ({
    attachmentId: Number(r.ext_id),
    id: Number(r.id),
    name: r.name,
    contentType: r.content_type,
    size: Number(r.size),
    url: integrationFileUrl(ctx, Number(r.id)),
  }));
}

export async function addAgentComment(
  ctx: AppContext,
  key: ApiKeyAccess,
  ticketExtId: number,
  body: AgentCommentCreate,
  idempotencyKey: string | undefined,
): Promise<Answer<AgentComment>> {
  const message = userHtml(body.message);
  const uploadIds = body.attachments.flatMap((a) => ('fileId' in a ? [a.fileId] : []));
  if (new Set(uploadIds).size !== uploadIds.length)
    throw badRequest('An attachment is listed twice', integrationErrorCodes.attachmentUnavailable);
  const creationDate = body.creationDate ? new Date(body.creationDate) : ctx.clock.now();
  if (Number.isNaN(creationDate.getTime()))
    throw badRequest('creationDate: not a date-time', 'validation_error');
  const inline = await storeInline(ctx, body);
  const now = ctx.clock.now();
  try {
    const answer = await ctx.database.db.transaction((tx) =>
      withIdempotency(
        tx,
        {
          apiKeyId: key.apiKeyId,
          key: idempotencyKey,
          route: `POST /api/integration/v1/tickets/${ticketExtId}/comments`,
          request: body,
          now,
        },
        async () => {
          const ticket = await findPortalTicketForUpdate(tx, key.portalId, ticketExtId);
          if (!ticket)
            throw notFound('No ticket with this id in the portal', integrationErrorCodes.ticketNotFound);
          const agent = await findOrCreateAgent(tx, key.portalId, body.senderAgentId, body.agentName);
          if (!agent)
            throw badRequest(
              `Unknown agent ${body.senderAgentId}: import it first or send agentName`,
              integrationErrorCodes.unknownAgent,
            );
          if (body.id !== undefined && (await commentExtIdTaken(tx, key.portalId, body.id)))
            throw conflict(`A comment with id ${body.id} exists`, integrationErrorCodes.commentIdTaken);
          const extId = body.id ?? (await reserveExtIds(tx, key.portalId, 'comment_seq'));
          const commentId = await insertComment(tx, {
            portalId: key.portalId,
            ticketId: ticket.id,
            extId,
            message,
            creationDate,
            senderAgentId: agent.id,
          });
          const uploads = await claimKeyUploads(tx, {
            portalId: key.portalId,
            apiKeyId: key.apiKeyId,
            fileIds: uploadIds,
            now,
          });
          if (uploads.length !== uploadIds.length)
            throw badRequest(
              'An attachment is not an unattached upload of this key',
              integrationErrorCodes.attachmentUnavailable,
            );
          const uploaded = new Map(uploads.map((u) => [u.id, u]));
          const inlineFiles = await insertInlineFiles(ctx, tx, key, inline, now);
          const list = body.attachments.map((a, i) =>
            'fileId' in a
              ? { id: a.fileId, name: a.name ? cleanFileName(a.name) : uploaded.get(a.fileId)!.name }
              : inlineFiles.get(i)!,
          );
          await insertAttachments(tx, {
            portalId: key.portalId,
            ticketId: ticket.id,
            commentId,
            files: list,
          });
          await emitCommentEvent(tx, ctx, 'agent.comment_added', commentId, apiKeySource(key.apiKeyId));

          const notified = (await queueAgentAnswerEmails(tx, ctx, commentId, now)) > 0;
          const body201: AgentComment = {
            id: extId,
            ticketId: ticket.extId,
            message,
            creationDate: creationDate.toISOString(),
            senderAgentId: body.senderAgentId,
            attachments: await attachmentsOf(ctx, tx, commentId),
            notified,
          };
          return { status: 201, body: body201 };
        },
      ),
    );
    kickOutbox();
    return answer;
  } catch (e) {
    for (const f of inline) ctx.fileStore.discard(f.blob);
    throw e;
  }
}
