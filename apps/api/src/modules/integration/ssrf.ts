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

/** IPv6 global unicast (RFC 4291 2.4): nothing outside 2000::/3 is a public destination. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Only globally routable unicast addresses. ipaddr.js names the special ranges (private, loopback,
 * 6to4, Teredo, NAT64, …) and calls everything else `unicast`, including IPv6 space that is not
 * global unicast at all, such as the deprecated IPv4-compatible `::127.0.0.1` (`::7f00:1`), which
 * some stacks still route to the embedded IPv4 address. So an IPv6 address must also lie in
 * 2000::/3, and an IPv4-mapped one is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}

function check(host: string, addresses: LookupAddress[], allowPrivate: boolean): void {
  if (addresses.length === 0) throw new WebhookTargetRefused(`${host} does not resolve`);
  if (allowPrivate) return;
  // The answer names no address: what an internal name resolves to is the network's, not the caller's.
  if (addresses.some((a) => !isPublicAddress(a.address)))
    throw new WebhookTargetRefused(`${host} resolves to a private, loopback or reserved address`);
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
