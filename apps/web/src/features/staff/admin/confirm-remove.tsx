import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { errorText } from '../../../lib/error-text';
import { useStaffT } from '../i18n';

/**
 * The confirmation before something is removed: what goes, Cancel and the red button; the server's
 * refusal in the desk's words, or as `explain` words one the caller knows (a refusal so explained turns
 * the button off: asking again would be refused again). `remove` makes the call and refreshes what
 * shows it; the dialog closes when it has.
 */
export function ConfirmRemove({
  title,
  text,
  action,
  cancel,
  remove,
  explain,
  onClose,
}: {
  title: string;
  text: string;
  action: string;
  cancel: string;
  remove: () => Promise<unknown>;
  explain?: (error: unknown) => string | null;
  onClose: () => void;
}) {
  const { t } = useStaffT();
  const removal = useMutation({ mutationFn: remove, onSuccess: onClose });
  const explained = removal.isError ? (explain?.(removal.error) ?? null) : null;
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ 'aria-label': t('close') }} title={title}>
      <Stack gap="sm">
        <Text>{text}</Text>
        {removal.isError && (
          <Alert color="red" role="alert" p="xs">
            {explained ?? errorText(removal.error, t)}
          </Alert>
        )}
        <Group justify="end">
          <Button variant="default" onClick={onClose}>
            {cancel}
          </Button>
          <Button
            color="red"
            onClick={() => removal.mutate()}
            loading={removal.isPending}
            disabled={explained !== null}
          >
            {action}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
