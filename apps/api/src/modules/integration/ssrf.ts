/**
 * Webhook targets must be public addresses: a portal's integrator must not make the server call its
 * own loopback, the cloud metadata address or a private network. The host is resolved and EVERY
 * address is checked, both when an endpoint is saved and at connection time (the `lookup` handed to
 * the HTTP client), so a DNS answer that changes later (rebinding) is caught where it matters.
 * WEBHOOK_ALLOW_PRIVATE=true lifts the rule (tests, a back office on the same network).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { promisify } from 'node:util';
import ipaddr from 'ipaddr.js';
import { integrationErrorCodes } from '@sportello/contracts';
import { AppError } from '../../platform/errors';

const lookupAll = promisify(dnsLookup);

export class WebhookTargetRefused extends AppError {
  constructor(message: string) {
    super(400, integrationErrorCodes.webhookTargetRefused, message);
  }
}

/** Only globally routable unicast addresses (ipaddr.js names every special range otherwise). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress())
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === 'unicast';
}

function check(host: string, addresses: LookupAddress[], allowPrivate: boolean): void {
  if (addresses.length === 0) throw new WebhookTargetRefused(`${host} does not resolve`);
  if (allowPrivate) return;
  const bad = addresses.find((a) => !isPublicAddress(a.address));
  if (bad)
    throw new WebhookTargetRefused(
      `${host} resolves to ${bad.address}, a private, loopback or reserved address`,
    );
}

/** Checks a URL's host now (at save time): 400 webhook_target_refused otherwise. */
export async function assertPublicTarget(url: string, allowPrivate: boolean): Promise<void> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(host, { all: true, verbatim: true });
  } catch {
    throw new WebhookTargetRefused(`${host} does not resolve`);
  }
  check(host, addresses, allowPrivate);
}

/**
 * Connecting to an IP literal skips `lookup`: such a host is checked here, before the request. Throws
 * webhook_target_refused.
 */
export function assertLiteralAllowed(hostname: string, allowPrivate: boolean): void {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (allowPrivate || !isIP(host)) return;
  check(host, [{ address: host, family: isIP(host) }], false);
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for http.request that refuses the connection when any address is not allowed. */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, []);
      try {
        check(hostname, addresses, allowPrivate);
      } catch (e) {
        return callback(e as NodeJS.ErrnoException, []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}
