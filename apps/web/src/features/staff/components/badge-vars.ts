import type { BadgeProps } from '@mantine/core';

/** An alarm (a low rating) is a filled red-9 badge instead: white on it is 5:1 on any background. */
export type BadgeTone = 'brand' | 'gray' | 'red';

/**
 * The shades a desk badge's words take, light scheme and dark: Mantine's light and outline badges
 * write them in shade 6 (gray-6 is 3.3:1 on white: "Waiting for the customer" failed), and a portal's
 * colour sits wherever its palette puts it. Shade 9 on light and 1 on dark keep 4.5:1 on white, on the
 * badge's tint and on a focused row's tint, whatever the portal's colour (badge-vars.test.ts walks a
 * set of them).
 */
export const BADGE_TEXT_SHADE = { light: 9, dark: 1 } as const;

/** Mantine's `vars` of a desk badge in a tone: only the words' colour changes. */
export const badgeVars =
  (tone: BadgeTone): BadgeProps['vars'] =>
  () => ({
    root: {
      '--badge-color': `light-dark(var(--mantine-color-${tone}-${BADGE_TEXT_SHADE.light}), var(--mantine-color-${tone}-${BADGE_TEXT_SHADE.dark}))`,
    },
  });

/**
 * The filled badges of the two priorities that call for attention (issue 28), the same in light and
 * dark (their own background): white on red-9, black on orange-4, each above 4.5:1 (badge-vars.test.ts).
 * Low is an outline gray badge; normal shows none. Each also says its priority in words, with an icon.
 */
export const PRIORITY_BADGES = {
  urgent: { color: 'red.9', text: '#ffffff' },
  high: { color: 'orange.4', text: '#000000' },
} as const;

/**
 * The service-level badge's alarms (issue 28 item 13), filled and the same in light and dark: "soon"
 * black on orange-4, "overdue" white on red-9 (badge-vars.test.ts). Within target and paused are outline
 * gray badges; each says its state in words with an icon too.
 */
export const SLA_BADGES = {
  soon: { color: 'orange.4', text: '#000000' },
  breached: { color: 'red.9', text: '#ffffff' },
} as const;
