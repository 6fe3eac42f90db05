import { Button, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { storage, type ViewAsInfo } from '../../lib/storage';

/**
 * The bar of a "see as this contact" tab (loaded only in such a tab): who is shown, that it only
 * reads, and Close, which forgets the view and closes the tab.
 */
export default function ViewAsBanner({ info }: { info: ViewAsInfo }) {
  const { t } = useTranslation();
  const close = () => {
    storage.clearViewAs();
    window.close();
    // A tab the script may not close (opened by hand): leave the portal.
    window.location.replace('/');
  };
  return (
    <Paper
      role="status"
      shadow="md"
      p="xs"
      bg="yellow.2"
      c="dark.9"
      style={{ position: 'fixed', insetInline: 0, bottom: 0, zIndex: 300, borderRadius: 0 }}
    >
      <Group justify="center" gap="sm" wrap="wrap">
        <Text fw={600} size="sm">
          {t('viewAs.banner', { name: info.name })}
        </Text>
        <Button size="compact-sm" variant="filled" color="dark" onClick={close}>
          {t('viewAs.close')}
        </Button>
      </Group>
    </Paper>
  );
}
