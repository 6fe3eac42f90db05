import type { ReactNode } from 'react';
import { Alert, Button, Card, Group, Stack, Title } from '@mantine/core';
import { errorText } from '../../../lib/error-text';
import { useStaffT } from '../i18n';

/**
 * The form of an admin section's create or edit: a titled card, the fields, the server's refusal as an
 * alert, Cancel and Save (the catalogue sections' editors share it). The browser's own checks are off:
 * the editors check their fields with the contract's schema (`validateWith`) and say why at the field.
 */
export function EditorCard({
  title,
  onSave,
  onCancel,
  error,
  saving,
  saveDisabled,
  children,
}: {
  title: string;
  onSave: () => void;
  onCancel: () => void;
  error: unknown;
  saving: boolean;
  saveDisabled?: boolean;
  children: ReactNode;
}) {
  const { t } = useStaffT();
  return (
    <Card
      withBorder
      padding="md"
      component="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      <Stack gap="sm">
        <Title order={2} size="h3">
          {title}
        </Title>
        {children}
        {error ? (
          <Alert color="red" variant="light" role="alert">
            {errorText(error, t)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('catalog.cancel')}
          </Button>
          <Button type="submit" loading={saving} disabled={saveDisabled}>
            {t('catalog.save')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
