import type { ReactNode } from 'react';
import { Box, CloseButton, Drawer, Group, Paper, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import classes from './list.module.css';

export interface SidePanelLayoutProps {
  list: ReactNode;
  /** The detail of the selected row, or null when nothing is selected. */
  panel: ReactNode | null;
  /** Heading of the panel (the selected row's name). */
  panelTitle: string;
  onClose: () => void;
}

/**
 * A list with the selected row's detail beside it on wide screens; on phones the detail opens in a
 * bottom drawer so the list keeps its place.
 */
export function SidePanelLayout({ list, panel, panelTitle, onClose }: SidePanelLayoutProps) {
  const { t } = useTranslation();
  const isNarrow = useMediaQuery('(max-width: 62em)') ?? false;
  if (isNarrow)
    return (
      <>
        {list}
        <Drawer
          opened={panel !== null}
          onClose={onClose}
          position="bottom"
          size="92%"
          title={panelTitle}
          closeButtonProps={{ 'aria-label': t('widgets.panel.close') }}
        >
          {panel}
        </Drawer>
      </>
    );
  return (
    <div className={panel === null ? undefined : classes.split}>
      <div className={classes.listColumn}>{list}</div>
      {panel !== null && (
        <Paper component="section" withBorder p="sm" className={classes.panel} aria-label={panelTitle}>
          <Group justify="space-between" wrap="nowrap" mb="xs">
            <Text fw={700} size="lg" truncate="end" component="h2">
              {panelTitle}
            </Text>
            <CloseButton aria-label={t('widgets.panel.close')} onClick={onClose} />
          </Group>
          <Box>{panel}</Box>
        </Paper>
      )}
    </div>
  );
}
