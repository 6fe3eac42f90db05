import { useSyncExternalStore } from 'react';
import { Badge } from '@mantine/core';
import type { TicketSla } from '@sportello/contracts/ticket-sla';
import { useStaffT } from '../i18n';
import { badgeVars, SLA_BADGES } from './badge-vars';

export type SlaState = 'ok' | 'soon' | 'breached' | 'paused';

/**
 * Where a ticket's clock stands at `now` (issue 28 item 13): paused while it waits for the customer,
 * breached past the pending target's due time, soon from the instant the server computed (under one
 * business hour or a quarter of the target left), ok before. Null: nothing is pending (no target, or
 * closed). `ms`: the time to the due time (negative once passed).
 */
export function slaState(sla: TicketSla | null, now: number): { state: SlaState; ms: number } | null {
  if (!sla?.nextDueAt) return null;
  const ms = Date.parse(sla.nextDueAt) - now;
  if (sla.paused) return { state: 'paused', ms };
  if (ms <= 0) return { state: 'breached', ms };
  if (sla.soonAt && Date.parse(sla.soonAt) <= now) return { state: 'soon', ms };
  return { state: 'ok', ms };
}

/** The countdown's words: minutes under an hour, hours and minutes under a day, else days and hours. */
export function slaDuration(ms: number): {
  key: 'minutes' | 'hours' | 'days';
  values: Record<string, number>;
} {
  const minutes = Math.max(1, Math.round(Math.abs(ms) / 60_000));
  if (minutes < 60) return { key: 'minutes', values: { n: minutes } };
  if (minutes < 24 * 60) return { key: 'hours', values: { h: Math.floor(minutes / 60), m: minutes % 60 } };
  return { key: 'days', values: { d: Math.floor(minutes / 1440), h: Math.floor((minutes % 1440) / 60) } };
}

// One clock for every badge on the page, read to the half minute (a stable snapshot between two reads),
// and one timer that tells the badges when it moves (a timer per row would be a list's worth).
const STEP = 30_000;
const nowSnapshot = () => Math.floor(Date.now() / STEP) * STEP;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;
function subscribe(listener: () => void) {
  listeners.add(listener);
  timer ??= setInterval(() => listeners.forEach((l) => l()), STEP);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

const GRAY = badgeVars('gray');
// Glyphs the desk's fonts have (clock and hourglass emoji showed as empty boxes in Chromium).
const MARK: Record<SlaState, string> = { ok: '→', soon: '!', breached: '‼', paused: '‖' };

/**
 * A ticket's service-level countdown beside its priority (inbox and ticket): words and an icon as well
 * as a colour ("Due soon: 40 min", "Overdue by 2 h 5 min"), the due time in its title.
 */
export function SlaBadge({ sla }: { sla: TicketSla | null }) {
  if (!sla?.nextDueAt) return null;
  return <SlaCountdown sla={sla} />;
}

function SlaCountdown({ sla }: { sla: TicketSla }) {
  const { t } = useStaffT();
  const now = useSyncExternalStore(subscribe, nowSnapshot, nowSnapshot);
  const s = slaState(sla, now);
  if (!s) return null;
  const d = slaDuration(s.ms);
  const time = t(`sla.${d.key}`, d.values);
  const words = s.state === 'paused' ? t('sla.paused') : t(`sla.${s.state}`, { time });
  const target = sla.firstRespondedAt === null ? t('sla.firstResponse') : t('sla.resolution');
  const filled = s.state === 'soon' || s.state === 'breached' ? SLA_BADGES[s.state] : null;
  return (
    <Badge
      variant={filled ? 'filled' : 'outline'}
      color={filled ? filled.color : 'gray'}
      c={filled ? filled.text : undefined}
      vars={filled ? undefined : GRAY}
      radius="sm"
      tt="none"
      size="sm"
      title={`${target}: ${words}`}
      data-testid="sla-badge"
      data-sla={s.state}
    >
      <span aria-hidden>{MARK[s.state]} </span>
      {target}: {words}
    </Badge>
  );
}
