import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../db/client';
import { outbox } from '../db/schema';
import type { AppContext } from './context';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; contentType: string; contentBase64: string }[];
}

export interface SmsMessage {
  to: string;
  text: string;
}

/** Queues an e-mail in the caller's transaction: it is sent only if that transaction commits. */
export async function enqueueEmail(tx: Tx | Db, message: EmailMessage, now: Date): Promise<void> {
  await tx.insert(outbox).values({ channel: 'email', payload: message, createdAt: now, nextAttemptAt: now });
}

/** Queues an SMS in the caller's transaction. */
export async function enqueueSms(tx: Tx | Db, message: SmsMessage, now: Date): Promise<void> {
  await tx.insert(outbox).values({ channel: 'sms', payload: message, createdAt: now, nextAttemptAt: now });
}

/** Placeholder until the outbox worker lands: it sends queued e-mail and SMS with retries. */
export class OutboxWorker {
  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
  ) {}
  start(): void {
    void this.ctx;
    void this.log;
  }
  async stop(): Promise<void> {}
}
