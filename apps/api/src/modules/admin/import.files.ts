import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { FileRef, ImportDocument, ImportPortal } from '@sportello/contracts';
import type { Tx } from '../../db/client';
import { files } from '../../db/schema';
import { cleanFileName, type FileStore, type StagedBlob } from '../../platform/files';

const CONTENT_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.bmp': 'image/bmp',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.htm': 'text/html',
  '.html': 'text/html',
  '.xml': 'application/xml',
  '.json': 'application/json',
  '.zip': 'application/zip',
  '.7z': 'application/x-7z-compressed',
  '.rar': 'application/vnd.rar',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.ppt': 'application/vnd.ms-powerpoint',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.odt': 'application/vnd.oasis.opendocument.text',
  '.ods': 'application/vnd.oasis.opendocument.spreadsheet',
  '.rtf': 'application/rtf',
  '.eml': 'message/rfc822',
  '.msg': 'application/vnd.ms-outlook',
  '.ics': 'text/calendar',
  '.p7m': 'application/pkcs7-mime',
  '.mp4': 'video/mp4',
  '.mp3': 'audio/mpeg',
};

/** The content type of a file name by its extension; unknown extensions are opaque bytes. */
export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/** Every FileRef of one portal, in document order. */
export function portalFileRefs(p: ImportPortal): FileRef[] {
  const refs: (FileRef | null | undefined)[] = [p.logo];
  for (const a of p.agents ?? []) refs.push(a.profileImage);
  for (const f of p.publicFiles ?? []) refs.push(f.file);
  for (const c of p.companies ?? []) {
    for (const folder of c.wikiFolders ?? [])
      for (const e of folder.elements ?? []) for (const prop of e.properties ?? []) refs.push(prop.file);
    for (const t of c.tickets ?? [])
      for (const cm of t.comments ?? []) for (const a of cm.attachments ?? []) refs.push(a.file);
    for (const r of c.activityReports ?? []) refs.push(r.document);
    for (const ac of c.activityContracts ?? []) for (const a of ac.activities ?? []) refs.push(a.report);
    for (const sc of c.serviceContracts ?? []) {
      for (const d of sc.documents ?? []) refs.push(d.file);
      for (const pk of sc.packages ?? []) for (const a of pk.activities ?? []) refs.push(a.report);
    }
    for (const i of c.invoices ?? []) refs.push(i.document);
    for (const e of c.estimates ?? []) refs.push(e.document);
    for (const d of c.documents ?? []) refs.push(d.file);
  }
  for (const s of p.signatureRequests ?? []) refs.push(s.file);
  return refs.filter((r): r is FileRef => !!r);
}

interface LoadedFile {
  sha256: string;
  size: number;
  name: string;
  contentType: string;
}

const keyOf = (sha256: string, name: string, contentType: string) => `${sha256}\n${name}\n${contentType}`;

/**
 * The files of one import: bytes are read and hashed before the transaction, stored once per distinct
 * SHA-256, then each portal gets one `files` row per (bytes, name, type), reused across re-imports.
 */
export class ImportFiles {
  private readonly loaded = new Map<FileRef, LoadedFile>();
  private readonly bytes = new Map<string, Buffer>();
  private readonly ids = new Map<number, Map<string, number>>();
  private readonly staged = new Map<string, StagedBlob>();
  private fileStore: FileStore | undefined;

  /** Reads every FileRef of a validated document (base64 or, with baseDir, a path). */
  async load(doc: ImportDocument, baseDir: string | undefined): Promise<void> {
    for (const p of doc.portals ?? []) {
      for (const ref of portalFileRefs(p)) {
        if (this.loaded.has(ref)) continue;
        let data: Buffer;
        if (ref.base64 !== undefined) data = Buffer.from(ref.base64, 'base64');
        else if (baseDir !== undefined && ref.path !== undefined)
          data = await readFile(resolve(baseDir, ref.path));
        else throw new Error('a file reference without bytes passed validation');
        const sha256 = createHash('sha256').update(data).digest('hex');
        if (!this.bytes.has(sha256)) this.bytes.set(sha256, data);
        // Names end up in Content-Disposition headers and in the UI: the same cleaning as uploads.
        const name = cleanFileName(ref.name);
        this.loaded.set(ref, {
          sha256,
          size: data.length,
          name,
          contentType: (ref.contentType ?? '').trim() || contentTypeOf(name),
        });
      }
    }
  }

  /** Stages the distinct bytes in the file store (outside the transaction); `writeRows` records them. */
  async store(fileStore: FileStore): Promise<void> {
    this.fileStore = fileStore;
    for (const data of this.bytes.values()) {
      const blob = await fileStore.stageBuffer(data);
      this.staged.set(blob.sha256, blob);
    }
    this.bytes.clear();
  }

  /** After a failed transaction: temp files go, placed bytes are left to the sweeper. */
  async discard(fileStore: FileStore): Promise<void> {
    for (const blob of this.staged.values()) await fileStore.discard(blob);
  }

  /** Records the blobs and this portal's `files` rows; afterwards `idOf` answers for its FileRefs. */
  async writeRows(tx: Tx, portalId: number, refs: FileRef[], now: Date): Promise<void> {
    const wanted = new Map<string, LoadedFile>();
    for (const ref of refs) {
      const f = this.must(ref);
      wanted.set(keyOf(f.sha256, f.name, f.contentType), f);
    }
    const ids = new Map<string, number>();
    this.ids.set(portalId, ids);
    if (wanted.size === 0) return;
    const shas = [...new Set([...wanted.values()].map((f) => f.sha256))];
    // Each blob's lock and row, and its bytes under their hash (a portal may reuse another's).
    for (const sha256 of shas.sort()) {
      const blob = this.staged.get(sha256);
      if (!blob || !this.fileStore) throw new Error(`file ${sha256} was not staged`);
      await this.fileStore.record(tx, blob, now);
    }
    for (const part of chunk(shas, 5000)) {
      const rows = await tx
        .select({ id: files.id, sha256: files.sha256, name: files.name, contentType: files.contentType })
        .from(files)
        .where(
          and(
            eq(files.portalId, portalId),
            inArray(files.sha256, part),
            // Uploads carry an uploader and attach-once state: never hand them to another owner.
            isNull(files.uploadedByContactId),
          ),
        )
        .orderBy(files.id);
      for (const r of rows) {
        const k = keyOf(r.sha256, r.name, r.contentType);
        if (!ids.has(k)) ids.set(k, r.id);
      }
    }
    const missing = [...wanted.entries()].filter(([k]) => !ids.has(k));
    for (const part of chunk(missing, 2000)) {
      const rows = await tx
        .insert(files)
        .values(
          part.map(([, f]) => ({
            portalId,
            sha256: f.sha256,
            name: f.name,
            contentType: f.contentType,
            size: f.size,
            createdAt: now,
          })),
        )
        .returning({ id: files.id, sha256: files.sha256, name: files.name, contentType: files.contentType });
      for (const r of rows) ids.set(keyOf(r.sha256, r.name, r.contentType), r.id);
    }
  }

  /** The `files` id of a FileRef in a portal whose rows were written. */
  idOf(portalId: number, ref: FileRef): number {
    const f = this.must(ref);
    const id = this.ids.get(portalId)?.get(keyOf(f.sha256, f.name, f.contentType));
    if (id === undefined) throw new Error(`file ${f.name} has no row in portal ${portalId}`);
    return id;
  }

  optionalIdOf(portalId: number, ref: FileRef | null | undefined): number | null {
    return ref ? this.idOf(portalId, ref) : null;
  }

  private must(ref: FileRef): LoadedFile {
    const f = this.loaded.get(ref);
    if (!f) throw new Error(`file ${ref.name} was not loaded`);
    return f;
  }
}

export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
