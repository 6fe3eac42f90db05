import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/**
 * s3rver's fixed credentials. It answered a request signed with a wrong secret all the same (checked
 * 2026-11-29): a test of refused credentials cannot rely on it.
 */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface RunningS3 {
  endpoint: string;
  bucket: string;
  /** The variables a process needs to use this bucket: FILE_STORE, S3_*, the AWS credentials. */
  env: (prefix: string) => Record<string, string>;
  close(): Promise<void>;
}

/**
 * A real S3-protocol server on loopback (s3rver, objects in a temp directory) with one bucket: the
 * object store of the S3 tests, the two-process test and the journey run with FILE_STORE=s3://….
 */
export async function startS3rver(bucket = 'sportello-test'): Promise<RunningS3> {
  const directory = mkdtempSync(join(tmpdir(), 'sportello-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    env: (prefix) => ({
      FILE_STORE: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    }),
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
