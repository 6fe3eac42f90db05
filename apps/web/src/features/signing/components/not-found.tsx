import { Stack, Text, Title } from '@mantine/core';
import { IconFileOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Unknown, foreign and expired links all look like this: the page says nothing about which it was. */
export function SigningNotFound() {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="sm" py="xl" maw={560} mx="auto" ta="center">
      <IconFileOff size={48} aria-hidden stroke={1.5} />
      <Title order={1}>{t('signing.notFoundTitle')}</Title>
      <Text>{t('signing.notFoundText')}</Text>
    </Stack>
  );
}
