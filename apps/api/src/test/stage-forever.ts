/**
 * A process that streams endless bytes into a file store and is killed while doing so (the store
 * suite's "killed upload"): argv[2] is the store's options as JSON ({ local } or the S3 options).
 * Prints `streaming` once 12 MB (past S3's first part) are on their way.
 */
import { Readable } from 'node:stream';
import { LocalFileStore } from '../platform/file-store-local';
import { S3FileStore, type S3Options } from '../platform/file-store-s3';

const opts = JSON.parse(process.argv[2]!) as { local: string } | S3Options;
const store = 'local' in opts ? new LocalFileStore(opts.local) : new S3FileStore(opts);
let sent = 0;
const chunk = Buffer.alloc(256 * 1024, 7);
const endless = new Readable({
  read() {
    sent += chunk.length;
    if (sent === 12 * 1024 * 1024) process.stdout.write('streaming\n');
    this.push(chunk);
  },
});
await store.stage(endless);
