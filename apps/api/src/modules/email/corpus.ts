/** Test-only: the hand-written messages of `corpus/`, with their placeholders filled. */
import { readFileSync } from 'node:fs';

export type CorpusName =
  | 'outlook-reply-it'
  | 'gmail-reply-es'
  | 'apple-mail-reply-it'
  | 'thunderbird-reply-en'
  | 'gmail-forward-it'
  | 'outlook-forward-it'
  | 'outlook-winmail-it'
  | 'html-only-it'
  | 'auto-reply-it'
  | 'dsn'
  | 'no-message-id-it'
  | 'malformed';

let counter = 0;

/** `{{FROM}}`, `{{TO}}`, `{{INREPLYTO}}`, `{{BOUNCED}}` as given; `{{N}}` a number unique to each letter. */
export function letter(name: CorpusName, vars: Record<string, string> = {}): Buffer {
  const text = readFileSync(new URL(`./corpus/${name}.eml`, import.meta.url), 'latin1');
  const n = `${process.pid}x${Date.now()}x${++counter}`;
  return Buffer.from(
    text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => (k === 'N' ? n : (vars[k] ?? `missing-${k}`))),
    'latin1',
  );
}
