import type { ReactNode } from 'react';
import { Table } from '@mantine/core';

/**
 * Every table of the administration: wider than a phone, it scrolls sideways in its own region, and
 * the region takes the keyboard focus so it can be scrolled without a mouse (axe:
 * scrollable-region-focusable). One wrapper, so no table of a section forgets it.
 */
export function TableScroll({ minWidth, children }: { minWidth: number; children: ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native" tabIndex={0}>
      {children}
    </Table.ScrollContainer>
  );
}
