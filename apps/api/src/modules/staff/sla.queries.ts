/** SQL of the service-level policy (issue 28 item 13; migration 0055). */
import { sql } from 'drizzle-orm';
import type { SlaPolicyInput } from '@sportello/contracts';
import { queryRows, type Queryable } from '../../platform/sql-json';

export interface SlaPolicyStored extends SlaPolicyInput {
  updatedAt: Date | null;
  timeZone: string;
}

/** The portal's policy (or the default); `lock`: the policy row held until the transaction ends. */
export async function readSlaPolicy(
  db: Queryable,
  portalId: number,
  lock = false,
): Promise<SlaPolicyStored | null> {
  const [r] = await queryRows<{
    time_zone: string;
    enabled: boolean | null;
    hours: SlaPolicyInput['hours'] | string | null;
    holidays: string[] | string | null;
    targets: SlaPolicyInput['targets'] | string | null;
    updated_at: string | null;
  }>(
    db,
    sql`select p.time_zone, s.enabled, s.hours, s.holidays, s.targets, s.updated_at::text as updated_at
      from portals p left join sla_policies s on s.portal_id = p.id where p.id = ${portalId}::int
      ${lock ? sql`for update of p` : sql``}`,
  );
  if (!r) return null;
  const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
  if (r.enabled === null || r.hours === null || r.holidays === null || r.targets === null)
    return { ...DEFAULT_POLICY, timeZone: r.time_zone, updatedAt: null };
  return {
    enabled: r.enabled,
    hours: json(r.hours),
    holidays: json(r.holidays),
    targets: json(r.targets),
    timeZone: r.time_zone,
    updatedAt: r.updated_at === null ? null : new Date(r.updated_at),
  };
}

export async function writeSlaPolicy(
  db: Queryable,
  portalId: number,
  p: SlaPolicyInput,
  now: Date,
): Promise<void> {
  await queryRows(
    db,
    sql`insert into sla_policies (portal_id, enabled, hours, holidays, targets, updated_at)
      values (${portalId}::int, ${p.enabled}::boolean, ${JSON.stringify(p.hours)}::jsonb,
        ${JSON.stringify(p.holidays)}::jsonb, ${JSON.stringify(p.targets)}::jsonb, ${now.toISOString()}::timestamptz)
      on conflict (portal_id) do update set enabled = excluded.enabled, hours = excluded.hours,
        holidays = excluded.holidays, targets = excluded.targets, updated_at = excluded.updated_at`,
  );
}

/**
 * Queues the recompute of the portal's open tickets' clocks (the breach sweep's cursor, from the
 * start): a change made while one runs starts it again.
 */
export async function queueSlaRecompute(db: Queryable, portalId: number): Promise<void> {
  await queryRows(
    db,
    sql`update sla_policies set recompute_after = -9223372036854775808 where portal_id = ${portalId}::int`,
  );
}

const weekday: [string, string][] = [
  ['09:00', '13:00'],
  ['14:00', '18:00'],
];

/** What an admin starts from: Monday to Friday 9-13 and 14-18, off until saved enabled. */
export const DEFAULT_POLICY: SlaPolicyInput = {
  enabled: false,
  hours: [[], weekday, weekday, weekday, weekday, weekday, []],
  holidays: [],
  targets: {
    low: { firstResponse: 16 * 60, resolution: 40 * 60 },
    normal: { firstResponse: 8 * 60, resolution: 24 * 60 },
    high: { firstResponse: 4 * 60, resolution: 16 * 60 },
    urgent: { firstResponse: 60, resolution: 8 * 60 },
  },
};
