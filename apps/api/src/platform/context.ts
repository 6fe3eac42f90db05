import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { Clock } from './clock';
import type { FileStore, FileUrlSigner } from './files';

/** Everything a module needs, built once by server.ts (or by a test) and handed to buildApp. */
export interface AppContext {
  config: Config;
  database: Database;
  clock: Clock;
  fileStore: FileStore;
  signer: FileUrlSigner;
  /** Server-wide secret (HMAC keys); never leaves the process. */
  secret: string;
  /**
   * Where the process stands (server.ts): it listens while it migrates and starts its workers, and
   * answers API requests 503 `starting` until `phase` is `serving`. Absent means serving (tests, tools).
   */
  lifecycle?: { phase: 'starting' | 'serving' };
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;
