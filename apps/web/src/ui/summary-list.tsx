import type { CSSProperties, ReactNode } from 'react';
import { Box, Text } from '@mantine/core';
import classes from './summary-list.module.css';

export interface SummaryRow {
  label: string;
  value: ReactNode;
}

/** A two-column description list (label, value) that stacks on narrow screens. */
export function SummaryList({
  rows,
  labelWidth = '30%',
  keepLineBreaks = false,
}: {
  rows: SummaryRow[];
  /** The label column's share of the width (at least 8rem). */
  labelWidth?: string;
  /** Show the line breaks of text values. */
  keepLineBreaks?: boolean;
}) {
  return (
    <Box
      component="dl"
      className={classes.list}
      style={{ '--summary-label-width': labelWidth } as CSSProperties}
    >
      {rows.map((r) => (
        <div key={r.label} className={classes.row}>
          <Text component="dt" size="sm" c="dimmed">
            {r.label}
          </Text>
          <Text
            component="dd"
            size="sm"
            fw={500}
            style={{ overflowWrap: 'anywhere', ...(keepLineBreaks ? { whiteSpace: 'pre-line' } : {}) }}
          >
            {r.value}
          </Text>
        </div>
      ))}
    </Box>
  );
}
