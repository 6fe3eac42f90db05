import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { outboxFileStem, writeOutboxFile, type SendMeta } from './mail';
import type { SmsMessage } from './outbox';

export const SMS_TIMEOUT_MS = 10_000;

export interface SmsTransport {
  readonly kind: 'webhook' | 'file';
  send(message: SmsMessage, meta: SendMeta): Promise<void>;
}

/**
 * `POST SMS_WEBHOOK_URL` with `{to, text}` JSON when set (anything but 2xx, or no answer within 10 s,
 * is a failure the outbox retries); otherwise a `.sms.json` file in DATA_DIR/outbox.
 */
export function createSmsTransport(config: Config, log: FastifyBaseLogger): SmsTransport {
  const url = config.SMS_WEBHOOK_URL;
  if (url) {
    return {
      kind: 'webhook',
      async send(message) {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ to: message.to, text: message.text }),
          signal: AbortSignal.timeout(SMS_TIMEOUT_MS),
        });
        if (!res.ok) {
          const body = (await res.text().catch(() => '')).slice(0, 200);
          throw new Error(`SMS webhook answered ${res.status}${body ? `: ${body}` : ''}`);
        }
        // Drain the body so the connection can be reused.
        await res.arrayBuffer().catch(() => undefined);
      },
    };
  }
  const dir = join(config.DATA_DIR, 'outbox');
  return {
    kind: 'file',
    async send(message, meta) {
      const path = writeOutboxFile(
        dir,
        `${outboxFileStem(meta)}.sms.json`,
        `${JSON.stringify({ to: message.to, text: message.text }, null, 2)}\n`,
      );
      log.info({ outboxId: meta.id, to: message.to, path }, 'SMS written to file');
    },
  };
}
