/**
 * s3rver (the tests' S3-protocol server, apps/api/src/test/s3rver.ts) in a process of its own, so a
 * benchmark's client and the object store do not share one event loop. Prints one JSON line,
 * `{ endpoint, bucket, env }` (env: the variables a server needs for FILE_STORE=s3://bucket/bench),
 * then serves until SIGTERM.
 */
import { startS3rver } from '../../apps/api/src/test/s3rver';

const s3 = await startS3rver('sportello-bench');
console.log(JSON.stringify({ endpoint: s3.endpoint, bucket: s3.bucket, env: s3.env('bench') }));
const stop = () => void s3.close().finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
