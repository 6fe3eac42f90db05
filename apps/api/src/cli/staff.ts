/**
 * `npm run staff -- invite <portal> <email> [--name "Display Name"] [--admin]`: invites a person to a portal's staff desk (the
 * first admin of a portal comes from here), in the database of this installation (DATA_DIR or
 * DATABASE_URL, like the server). Prints the invitation link and queues the same link by e-mail
 * (sent by the server's outbox worker). When a running server holds the embedded DATA_DIR, the
 * invitation is asked of that server instead (`POST /api/admin/portals/:portal/staff` on this machine's
 * PORT, with PORTAL_ADMIN_KEY), which does the same. Exit codes: 0 invited, 1 failure, 2
 * usage/configuration, 3 DATA_DIR in use by a running server that cannot be asked (no
 * PORTAL_ADMIN_KEY, or it does not answer), 4 DATA_DIR unusable.
 */
import type { InstallationInviteAnswer } from '@sportello/contracts';
import type { Config } from '../config';
import { inviteStaff } from '../modules/staff/staff.service';
import { AppError } from '../platform/errors';
import { loadCliConfig, localServerUrl, withInstallation } from './installation';

const USAGE = 'Usage: npm run staff -- invite <portal> <email> [--name "Display Name"] [--admin]';

export function parseArgs(
  argv: string[],
): { portal: string; email: string; role: 'agent' | 'admin'; displayName?: string } | undefined {
  const args = argv.filter((a) => a !== '--');
  const admin = args.includes('--admin');
  let rest = args.filter((a) => a !== '--admin');
  // The name customers see on the member's replies; without it, the import's agent or the e-mail's.
  const at = rest.indexOf('--name');
  let displayName: string | undefined;
  if (at >= 0) {
    displayName = rest[at + 1]?.trim();
    if (!displayName || displayName.startsWith('--') || displayName.length > 120) return undefined;
    rest = rest.filter((_, i) => i !== at && i !== at + 1);
  }
  if (rest.length !== 3 || rest[0] !== 'invite' || rest.some((a) => a.startsWith('--'))) return undefined;
  return {
    portal: rest[1]!,
    email: rest[2]!,
    role: admin ? 'admin' : 'agent',
    ...(displayName !== undefined && { displayName }),
  };
}

function printInvite(r: InstallationInviteAnswer, portal: string): void {
  const who = `${r.displayName} <${r.email}>`;
  const agent = r.matchedAgent ? ' (the portal agent with this e-mail)' : '';
  console.log(
    r.alreadyActive
      ? `Added ${who} to ${portal} as ${r.role}${agent}: they already sign in, their password ` +
          'is unchanged. A notice is queued; the staff desk:'
      : `Invited ${who} to ${portal} as ${r.role}${agent}. The invitation e-mail is queued; ` +
          'the link (valid 7 days, single use):',
  );
  console.log(r.link);
}

/** The same invitation, asked of the server that holds the embedded database. */
export async function inviteThroughServer(
  config: Config,
  invite: { portal: string; email: string; role: 'agent' | 'admin'; displayName?: string },
  lockMessage: string,
): Promise<number> {
  const base = localServerUrl(config);
  if (!config.PORTAL_ADMIN_KEY) {
    console.error(
      `${lockMessage}\nSet PORTAL_ADMIN_KEY (the running server's) to invite through the server at ${base}.`,
    );
    return 3;
  }
  let res: Response;
  try {
    res = await fetch(`${base}/api/admin/portals/${encodeURIComponent(invite.portal)}/staff`, {
      method: 'POST',
      headers: { authorization: `Bearer ${config.PORTAL_ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: invite.email, role: invite.role, displayName: invite.displayName }),
      signal: AbortSignal.timeout(60_000),
    });
  } catch (e) {
    console.error(`${lockMessage}\nThe server at ${base} does not answer (${(e as Error).message}).`);
    return 3;
  }
  const body = (await res.json().catch(() => ({}))) as Partial<InstallationInviteAnswer> & {
    message?: string;
  };
  if (res.status !== 201) {
    console.error(`The server at ${base} refused: ${body.message ?? res.statusText} (${res.status})`);
    return res.status === 401 || res.status === 503 ? 3 : 1;
  }
  console.error(`(through the running server at ${base})`);
  printInvite(body as InstallationInviteAnswer, invite.portal);
  return 0;
}

async function main(): Promise<number> {
  const parsed = parseArgs(process.argv.slice(2));
  if (!parsed) {
    console.error(USAGE);
    return 2;
  }
  const config = loadCliConfig();
  if (typeof config === 'number') return config;
  return withInstallation(
    config,
    async (ctx) => {
      try {
        printInvite(
          await inviteStaff(ctx, parsed.portal, parsed.email, parsed.role, undefined, parsed.displayName),
          parsed.portal,
        );
        return 0;
      } catch (e) {
        if (e instanceof AppError) {
          console.error(e.message);
          return 1;
        }
        throw e;
      }
    },
    (message) => inviteThroughServer(config, parsed, message),
  );
}

// Only when run as the script (tests import parseArgs).
if (process.argv[1] && /cli[\\/]staff\.ts$/.test(process.argv[1])) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
