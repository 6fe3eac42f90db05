import type { ReactNode } from 'react';
import { UnstyledButton } from '@mantine/core';
import classes from './list.module.css';

export interface ListRowProps {
  children: ReactNode;
  isSelected?: boolean;
  /** Rows of expired items are faded (activity contracts). */
  isFaded?: boolean;
  onClick: () => void;
  /** 'pressed' for rows that toggle a side panel, 'expanded' for rows that open in place. */
  toggles?: 'pressed' | 'expanded';
  controls?: string;
}

/** A list row that is a real button: focusable, Enter/Space select it, with a visible focus ring. */
export function ListRow({
  children,
  isSelected = false,
  isFaded,
  onClick,
  toggles = 'pressed',
  controls,
}: ListRowProps) {
  return (
    <UnstyledButton
      className={classes.row}
      data-selected={isSelected || undefined}
      data-faded={isFaded || undefined}
      aria-pressed={toggles === 'pressed' ? isSelected : undefined}
      aria-expanded={toggles === 'expanded' ? isSelected : undefined}
      aria-controls={controls}
      onClick={onClick}
    >
      {children}
    </UnstyledButton>
  );
}
