import type { ReactNode } from 'react';
import { Alert, Card, Stack, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH } from '@sportello/contracts';
import { errorText } from '../../../lib/error-text';
import { accountErrorKey } from '../errors';

/** A titled block of the profile. */
export function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby={id}>
      <Stack gap="md">
        <Title order={2} size="h3" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

/** A result line under a form: success in green, failure in red (read out by screen readers). */
export function Outcome({ error, success }: { error?: unknown; success?: string | null }) {
  const { t } = useTranslation();
  if (error) {
    const key = accountErrorKey(error);
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
        {key ? t(key, { min: PASSWORD_MIN_LENGTH }) : errorText(error, t)}
      </Alert>
    );
  }
  if (success)
    return (
      <Alert color="green" variant="light" icon={<IconCircleCheck aria-hidden />} role="status">
        {success}
      </Alert>
    );
  return null;
}
