/**
 * `npm run staff -- invite <portal> <email> [--name "Display Name"] [--admin]`: invites a person to a portal's staff desk (the
 * first admin of a portal comes from here), in the database of this installation (DATA_DIR or
 * DATABASE_URL, like the server). Prints the invitation link and queues the same link by e-mail
 * (sent by the server's outbox worker). Exit codes: 0 invited, 1 failure, 2 usage/configuration,
 * 3 DATA_DIR in use by a running server (use DATABASE_URL, or stop it), 4 DATA_DIR unusable.
 */
import { inviteStaff } from '../modules/staff/staff.service';
import { AppError } from '../platform/errors';
import { loadCliConfig, withInstallation } from './installation';

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

async function main(): Promise<number> {
  const parsed = parseArgs(process.argv.slice(2));
  if (!parsed) {
    console.error(USAGE);
    return 2;
  }
  const config = loadCliConfig();
  if (typeof config === 'number') return config;
  return withInstallation(config, async (ctx) => {
    try {
      const r = await inviteStaff(
        ctx,
        parsed.portal,
        parsed.email,
        parsed.role,
        undefined,
        parsed.displayName,
      );
      const who = `${r.displayName} <${r.email}>`;
      const agent = r.matchedAgent ? ' (the portal agent with this e-mail)' : '';
      console.log(
        r.alreadyActive
          ? `Added ${who} to ${parsed.portal} as ${r.role}${agent}: they already sign in, their password ` +
              'is unchanged. A notice is queued; the staff desk:'
          : `Invited ${who} to ${parsed.portal} as ${r.role}${agent}. The invitation e-mail is queued; ` +
              'the link (valid 7 days, single use):',
      );
      console.log(r.link);
      return 0;
    } catch (e) {
      if (e instanceof AppError) {
        console.error(e.message);
        return 1;
      }
      throw e;
    }
  });
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
