import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from './context';

/** Placeholder until the outbox lands: the worker sends queued e-mail and SMS. */
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
