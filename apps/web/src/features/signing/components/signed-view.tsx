import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { SigningDocument } from '@sportello/contracts';
import { formatDate, formatTime } from '../../../lib/format';
import { downloadUrl } from '../../../ui/file-preview';

/** A signed document: when it was signed and its signed PDF (the success message right after signing). */
export function SignedView({ doc, isJustSigned }: { doc: SigningDocument; isJustSigned: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Alert
        color="green"
        variant="light"
        icon={<IconCircleCheck aria-hidden />}
        role={isJustSigned ? 'alert' : undefined}
        title={
          // The alert's green is too light for text (axe color-contrast): the title keeps the body colour.
          <Title
            order={2}
            size="h4"
            id="signing-done-title"
            tabIndex={-1}
            c="var(--mantine-color-text)"
            style={{ outline: 'none' }}
          >
            {t(isJustSigned ? 'signing.success' : 'signing.alreadySigned')}
          </Title>
        }
      >
        <Text size="sm" data-testid="signed-on">
          {t('signing.signedOn', { date: formatDate(doc.signedAt), time: formatTime(doc.signedAt) })}
        </Text>
      </Alert>
      <Button
        component="a"
        href={downloadUrl(doc.documentUrl)}
        leftSection={<IconDownload size={18} aria-hidden />}
        fullWidth
      >
        {t('signing.downloadSigned')}
      </Button>
    </Stack>
  );
}
