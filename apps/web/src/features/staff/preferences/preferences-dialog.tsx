import { Modal, Stack, Switch, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type StaffPreferences } from '@sportello/contracts';
import { staffDeskRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { errorText } from '../../../lib/error-text';
import { ListError, ListLoading } from '../../../ui/list-states';
import { staffKeys } from '../api/keys';
import { useStaffT } from '../i18n';

const prefsKey = [...staffKeys.me(), 'preferences'] as const;

/** The switches, in the order shown (the bell shows everything whatever they say). */
const PREFERENCES = [
  'emailNewTicket',
  'emailCustomerReply',
  'emailAssigned',
  'emailMention',
  'emailSla',
  'emailLowRating',
] as const satisfies readonly (keyof StaffPreferences)[];

/**
 * The agent's preferences (issue 13), from the desk's user menu: what they are e-mailed about, for
 * every portal they belong to. Each switch saves at once.
 */
export function PreferencesDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useStaffT();
  const qc = useQueryClient();
  const prefs = useQuery({
    queryKey: prefsKey,
    queryFn: ({ signal }) => call(staffDeskRoutes.preferences, { signal }),
    enabled: opened,
  });
  const save = useMutation({
    mutationFn: (p: Partial<StaffPreferences>) => call(staffDeskRoutes.setPreferences, { body: p }),
    onSuccess: (p) => qc.setQueryData(prefsKey, p),
  });
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('preferences.title')}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      {prefs.isPending ? (
        <ListLoading />
      ) : prefs.isError ? (
        <ListError onRetry={() => void prefs.refetch()} message={errorText(prefs.error, t)} />
      ) : (
        <Stack gap="md">
          <Text size="sm">{t('preferences.intro')}</Text>
          {PREFERENCES.map((key) => (
            <Switch
              key={key}
              label={t(`preferences.${key}`)}
              checked={prefs.data[key]}
              disabled={save.isPending}
              onChange={(e) => save.mutate({ [key]: e.currentTarget.checked })}
            />
          ))}
          {save.isError && (
            <Text c="red" size="sm" role="alert">
              {errorText(save.error, t)}
            </Text>
          )}
        </Stack>
      )}
    </Modal>
  );
}
