import type { ReactNode } from 'react';
import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useStaffT } from '../../i18n';

/**
 * A secret the server answers once: shown with a copy button and the warning that it will not return
 * (and, for a rotated webhook secret, what happens to the old one meanwhile).
 */
export function SecretOnce({
  label,
  secret,
  onClose,
  children,
}: {
  label: string;
  secret: string;
  onClose: () => void;
  children?: ReactNode;
}) {
  const { t } = useStaffT();
  return (
    <Alert color="yellow" title={label} withCloseButton onClose={onClose} closeButtonLabel={t('close')}>
      <Stack gap="xs">
        <Text size="sm">{t('access.secretOnce')}</Text>
        <Group gap="xs" wrap="nowrap">
          <Code style={{ wordBreak: 'break-all' }} data-testid="secret-once">
            {secret}
          </Code>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button size="xs" variant="default" onClick={copy}>
                {copied ? t('access.copied') : t('access.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
        {children}
      </Stack>
    </Alert>
  );
}
