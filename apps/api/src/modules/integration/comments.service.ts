/**
 * The back office answers a ticket: an agent comment written through the integration API by
 * writeComment (the comment, its attachments, the `agent.comment_added` event with the key as source,
 * the e-mail to the ticket's creator unless they turned it off), in one transaction with the inline
 * files it brings and, with an Idempotency-Key, the stored answer.
 */
import { sql } from 'drizzle-orm';
import { type AgentComment, type AgentCommentCreate, type IntegrationFile } from '@sportello/contracts';
import type { Tx } from '../../db/client';
import { files } from '../../db/schema';
import type { ApiKeyAccess } from '../../platform/api-keys';
import type { AppContext } from '../../platform/context';
import { badRequest } from '../../platform/errors';
import { payloadTooLarge, type StagedBlob } from '../../platform/files';
import { kickOutbox } from '../../platform/outbox';
import { queryRows } from '../../platform/sql-json';
import { cleanFileName } from '../../platform/uploads';
import { withIdempotency, type Answer } from '../../platform/idempotency';
import { writeCommentIn } from '../tickets/core';

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
    for (const f of out) await ctx.fileStore.discard(f.blob);
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
        // The comment's writer attaches it, as it does the key's earlier uploads.
        attachedAt: null,
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
          const inlineFiles = await insertInlineFiles(ctx, tx, key, inline, now);
          const written = await writeCommentIn(tx, ctx, {
            portalId: key.portalId,
            ticketExtId,
            channel: 'api',
            author: {
              kind: 'agent',
              apiKeyId: key.apiKeyId,
              agentExtId: body.senderAgentId,
              agentName: body.agentName,
            },
            message: body.message,
            attachments: body.attachments.map((a, i) =>
              'fileId' in a
                ? { fileId: a.fileId, name: a.name ? cleanFileName(a.name) : undefined }
                : { fileId: inlineFiles.get(i)!.id },
            ),
            extId: body.id,
            creationDate,
          });
          const body201: AgentComment = {
            id: written.extId,
            ticketId: written.ticketExtId,
            message: written.message,
            creationDate: creationDate.toISOString(),
            senderAgentId: body.senderAgentId,
            attachments: await attachmentsOf(ctx, tx, written.id),
            notified: written.answerEmails > 0,
          };
          return { status: 201, body: body201 };
        },
      ),
    );
    kickOutbox();
    return answer;
  } catch (e) {
    for (const f of inline) await ctx.fileStore.discard(f.blob);
    throw e;
  }
}
