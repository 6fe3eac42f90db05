import { useState } from 'react';
import { Button, Checkbox, Code, Group, List, Modal, Stack, Text } from '@mantine/core';
import type { AccessMember } from '@sportello/contracts';
import { useLoseAccess, useStaffMade } from '../../api/admin-staff';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';

/**
 * Removing a member, or taking their admin role, asks first (issue 29, B8): it lists the API keys and
 * webhook endpoints they made that keep working after they go, and offers to revoke and disable them in
 * the same step (checked by default). The server does both in one transaction and e-mails the other
 * admins.
 */
export function LoseAccessModal({
  member: m,
  kind,
  onClose,
  onDone,
  onError,
}: {
  member: AccessMember;
  kind: 'remove' | 'demote';
  onClose: () => void;
  onDone: () => void;
  onError: (e: unknown) => void;
}) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const made = useStaffMade(company, m.id);
  const [revoke, setRevoke] = useState(true);
  const lose = useLoseAccess(company, m.id, kind);
  const act = () =>
    lose.mutate(revoke, {
      onSuccess: onDone,
      onError: (e) => {
        onClose();
        onError(e);
      },
    });
  const keys = made.data?.apiKeys ?? [];
  const hooks = made.data?.webhookEndpoints ?? [];
  const any = keys.length + hooks.length > 0;
  const title = kind === 'remove' ? 'access.staff.lose.titleRemove' : 'access.staff.lose.titleDemote';
  return (
    <Modal
      opened
      onClose={onClose}
      title={t(title, { email: m.email })}
      centered
      closeButtonProps={{ 'aria-label': t('access.staff.lose.cancel') }}
      // A long address wraps instead of running off a phone's screen.
      styles={{ title: { overflowWrap: 'anywhere' } }}
    >
      <Stack gap="sm" data-testid="lose-access">
        <Text size="sm">
          {t(kind === 'remove' ? 'access.staff.lose.introRemove' : 'access.staff.lose.introDemote')}
        </Text>
        {made.isPending ? (
          <Text size="sm" c="dimmed">
            {t('access.staff.lose.loading')}
          </Text>
        ) : !any ? (
          <Text size="sm">{t('access.staff.lose.nothing')}</Text>
        ) : (
          <>
            <Text size="sm">{t('access.staff.lose.made')}</Text>
            {keys.length > 0 && (
              <div>
                <Text size="sm" fw={500}>
                  {t('access.staff.lose.keys')}
                </Text>
                <List size="sm">
                  {keys.map((k) => (
                    <List.Item key={k.id}>
                      {k.name} <Code>{k.prefix}…</Code>
                    </List.Item>
                  ))}
                </List>
              </div>
            )}
            {hooks.length > 0 && (
              <div>
                <Text size="sm" fw={500}>
                  {t('access.staff.lose.hooks')}
                </Text>
                <List size="sm">
                  {hooks.map((h) => (
                    <List.Item key={h.id} style={{ wordBreak: 'break-all' }}>
                      {h.url}
                    </List.Item>
                  ))}
                </List>
              </div>
            )}
            <Checkbox
              checked={revoke}
              onChange={(e) => setRevoke(e.currentTarget.checked)}
              label={t('access.staff.lose.revoke')}
            />
          </>
        )}
        <Text size="xs" c="dimmed">
          {t('access.staff.lose.told')}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('access.staff.lose.cancel')}
          </Button>
          <Button color="red" loading={lose.isPending} disabled={made.isPending} onClick={act}>
            {t(kind === 'remove' ? 'access.staff.lose.confirmRemove' : 'access.staff.lose.confirmDemote')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
