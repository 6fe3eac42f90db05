import { Badge } from '@mantine/core';
import type { TaskType } from '@sportello/contracts';
import { typeBadgeColours } from './type-colour';

/** The ticket type in its own colour, with black or white text, whichever reads better on it. */
export function TypeBadge({ type }: { type: TaskType }) {
  const colours = typeBadgeColours(type.color);
  return (
    <Badge
      variant={colours ? 'filled' : 'default'}
      tt="none"
      radius="sm"
      maw="100%"
      style={{ flexShrink: 0 }}
      styles={colours ? { root: { backgroundColor: colours.background, color: colours.text } } : undefined}
      data-testid="ticket-type"
    >
      {type.name}
    </Badge>
  );
}
