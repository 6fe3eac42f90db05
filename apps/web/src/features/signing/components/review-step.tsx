import { useState, type FormEvent } from 'react';
import { Alert, Button, Checkbox, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { SigningDocument } from '@sportello/contracts';
import type { SigningMessage } from '../errors';

/**
 * Step 1: the signer accepts the document and types their full name. An OTP request continues to the
 * code step; any other is signed right here.
 */
export function ReviewStep({
  doc,
  initialName,
  isSigning,
  serverError,
  onSubmit,
}: {
  doc: SigningDocument;
  initialName: string;
  isSigning: boolean;
  serverError: SigningMessage | null;
  onSubmit: (fullName: string) => void;
}) {
  const { t } = useTranslation();
  const [fullName, setFullName] = useState(initialName);
  const [isAccepted, setIsAccepted] = useState(initialName !== '');
  const [isSubmitted, setIsSubmitted] = useState(false);
  const isBlocked = doc.requireOtp && !doc.hasPhone;
  const isMissing = !fullName.trim() || !isAccepted;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setIsSubmitted(true);
    if (isMissing || isBlocked) return;
    onSubmit(fullName.trim());
  };

  const message = isSubmitted && isMissing ? { key: 'signing.fillAllFields' } : serverError;
  return (
    <form onSubmit={submit} noValidate aria-labelledby="signing-review-title">
      <Stack gap="md">
        <div>
          {doc.requireOtp && (
            <Text size="sm" c="dimmed">
              {t('signing.stepOf', { step: 1, total: 2 })}
            </Text>
          )}
          <Title order={2} size="h3" id="signing-review-title">
            {t('signing.reviewTitle')}
          </Title>
        </div>
        <Text size="sm">{t(doc.requireOtp ? 'signing.reviewIntroOtp' : 'signing.reviewIntro')}</Text>
        {isBlocked && (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
            {t('signing.noPhone')}
          </Alert>
        )}
        <Checkbox
          label={t('signing.acceptLabel')}
          checked={isAccepted}
          onChange={(e) => setIsAccepted(e.currentTarget.checked)}
          error={isSubmitted && !isAccepted}
          disabled={isBlocked}
          required
        />
        <TextInput
          label={t('signing.fullNameLabel')}
          description={t('signing.fullNameHint')}
          value={fullName}
          onChange={(e) => setFullName(e.currentTarget.value)}
          error={isSubmitted && !fullName.trim()}
          autoComplete="name"
          maxLength={200}
          disabled={isBlocked}
          required
        />
        {message && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
            {t(message.key, message.values)}
          </Alert>
        )}
        <Button type="submit" loading={isSigning} disabled={isBlocked} fullWidth>
          {t(doc.requireOtp ? 'signing.continue' : 'signing.sign')}
        </Button>
      </Stack>
    </form>
  );
}
