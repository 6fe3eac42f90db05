import { resolve } from 'node:path';
import type { Config } from '../config';
import { LocalFileStore } from './file-store-local';
import { parseS3Url, S3FileStore } from './file-store-s3';
import type { FileStore } from './files';

/** A presigned download link lives this long: long enough to start a download, no longer. */
const PRESIGN_SECONDS = 300;

type StoreConfig = Pick<
  Config,
  'DATA_DIR' | 'FILE_STORE' | 'S3_ENDPOINT' | 'S3_REGION' | 'S3_FORCE_PATH_STYLE' | 'S3_PRESIGNED_DOWNLOADS'
>;

/**
 * The installation's file store, chosen once at start: FILE_STORE=s3://bucket/prefix (with S3_* and
 * the standard AWS credential variables), or DATA_DIR/files when it is unset. `fileStore` may name
 * another location than the configuration's (`npm run files -- copy --to …`): `local` or a path for a
 * local store, `s3://…` for a bucket with the configuration's S3_* settings.
 */
export function openFileStore(config: StoreConfig, fileStore = config.FILE_STORE): FileStore {
  if (fileStore === undefined || fileStore === 'local') return LocalFileStore.inDataDir(config.DATA_DIR);
  if (!fileStore.startsWith('s3://')) return new LocalFileStore(resolve(fileStore));
  const location = parseS3Url(fileStore);
  if (!location) throw new Error(`${fileStore} is not an s3://bucket/prefix address`);
  return new S3FileStore({
    ...location,
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    presignSeconds: config.S3_PRESIGNED_DOWNLOADS ? PRESIGN_SECONDS : undefined,
  });
}
