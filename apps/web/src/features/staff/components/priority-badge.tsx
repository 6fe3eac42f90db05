import { Badge } from '@mantine/core';
import type { TicketPriority } from '@sportello/contracts/staff-views';
import { badgeVars, PRIORITY_BADGES } from './badge-vars';

const GRAY = badgeVars('gray');
/** An icon per priority besides its colour and words: ⇊ low, ↑ high, ‼ urgent. */
const MARK: Record<TicketPriority, string> = { low: '↓', normal: '', high: '↑', urgent: '‼' };

/**
 * A ticket's priority: colour, icon and words (issue 28), so it reads without colour as with it.
 * Normal draws nothing unless `always` (the ticket page's own).
 */
export function PriorityBadge({
  priority,
  label,
  always = false,
}: {
  priority: TicketPriority;
  /** The priority's words ("Urgent"). */
  label: string;
  always?: boolean;
}) {
  if (priority === 'normal' && !always) return null;
  const filled = priority === 'urgent' || priority === 'high' ? PRIORITY_BADGES[priority] : null;
  return (
    <Badge
      variant={filled ? 'filled' : 'outline'}
      color={filled ? filled.color : 'gray'}
      c={filled ? filled.text : undefined}
      vars={filled ? undefined : GRAY}
      radius="sm"
      tt="none"
      size="sm"
      data-testid="priority-badge"
      data-priority={priority}
    >
      {MARK[priority] && <span aria-hidden>{MARK[priority]} </span>}
      {label}
    </Badge>
  );
}
