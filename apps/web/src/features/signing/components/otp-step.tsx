import { useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Group, PinInput, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconMessage2 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { SigningDocument } from '@sportello/contracts';
import { OTP_LENGTH } from '@sportello/contracts/signing-codes';
import { retryAfterOf, signingErrorMessage, type SigningMessage } from '../errors';
import { useSendOtp } from '../api/send-otp';
import { useCountdown } from './use-countdown';

/**
 * Step 2 of an OTP request: send the code to the phone on file (shown masked), type the 6 digits, sign.
 * Resending waits 60 s, with the countdown in view; the server enforces the same rule and the others.
 */
export function OtpStep({
  company,
  documentKey,
  doc,
  isSigning,
  serverError,
  onSign,
  onBack,
  onCodeSent,
}: {
  company: string;
  documentKey: string;
  doc: SigningDocument;
  isSigning: boolean;
  serverError: SigningMessage | null;
  onSign: (code: string) => Promise<boolean>;
  onBack: () => void;
  /** A new code makes the previous refusal (wrong or expired code) stale. */
  onCodeSent: () => void;
}) {
  const { t } = useTranslation();
  const send = useSendOtp(company, documentKey);
  const [code, setCode] = useState('');
  const [localError, setLocalError] = useState<SigningMessage | null>(null);
  // A deadline measured on this device's clock from the server's answer, so clock skew cannot shorten it.
  const [resendAt, setResendAt] = useState<number | null>(null);
  const pinRoot = useRef<HTMLDivElement>(null);
  const serverResendAt = doc.otp ? Date.parse(doc.otp.resendAvailableAt) : null;
  const secondsLeft = useCountdown(resendAt ?? serverResendAt);
  const hasCode = doc.otp !== null;
  const phone = doc.maskedPhone ?? '';

  const focusPin = () => pinRoot.current?.querySelector('input')?.focus();

  const requestCode = () => {
    setLocalError(null);
    send.mutate(undefined, {
      onSuccess: (sent) => {
        setCode('');
        onCodeSent();
        setResendAt(Date.now() + (Date.parse(sent.resendAvailableAt) - Date.parse(sent.sentAt)));
        requestAnimationFrame(focusPin);
      },
      onError: (error) => {
        const wait = retryAfterOf(error);
        if (wait !== undefined) setResendAt(Date.now() + wait * 1000);
      },
    });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!code) return setLocalError({ key: 'signing.fillAllFields' });
    if (!new RegExp(`^\\d{${OTP_LENGTH}}$`).test(code)) return setLocalError({ key: 'signing.invalidCode' });
    setLocalError(null);
    const isSigned = await onSign(code);
    if (!isSigned) {
      setCode('');
      focusPin();
    }
  };

  if (!doc.hasPhone)
    return (
      <Stack gap="md">
        <StepTitle />
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {t('signing.noPhone')}
        </Alert>
        <Button variant="default" onClick={onBack}>
          {t('signing.back')}
        </Button>
      </Stack>
    );

  const sendError = send.error ? signingErrorMessage(send.error) : null;
  const message = localError ?? serverError ?? sendError;
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby="signing-otp-title">
      <Stack gap="md">
        <StepTitle />
        {hasCode ? (
          <Alert color="blue" variant="light" icon={<IconMessage2 aria-hidden />} role="status">
            {t('signing.codeSent', { phone })}
          </Alert>
        ) : (
          <Text size="sm">{t('signing.codeIntro', { phone })}</Text>
        )}
        {hasCode && (
          <div role="group" aria-labelledby="signing-code-label">
            <Text component="div" id="signing-code-label" fw={500} size="sm" mb={6}>
              {t('signing.codeLabel')}
            </Text>
            <PinInput
              rootRef={pinRoot}
              length={OTP_LENGTH}
              type="number"
              inputMode="numeric"
              oneTimeCode
              value={code}
              onChange={setCode}
              error={message !== null}
              gap={6}
              getInputProps={(index) => ({
                'aria-label': t('signing.codeDigit', { n: index + 1, total: OTP_LENGTH }),
              })}
            />
          </div>
        )}
        {message && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
            {t(message.key, message.values)}
          </Alert>
        )}
        {hasCode && (
          <Button type="submit" loading={isSigning} fullWidth>
            {t('signing.sign')}
          </Button>
        )}
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Button variant="subtle" onClick={onBack} px={0}>
            {t('signing.back')}
          </Button>
          <Button
            variant={hasCode ? 'default' : 'filled'}
            onClick={requestCode}
            loading={send.isPending}
            disabled={secondsLeft > 0}
            fullWidth={!hasCode}
          >
            {t(hasCode ? 'signing.resendCode' : 'signing.sendCode')}
            {secondsLeft > 0 && ` (${secondsLeft} s)`}
          </Button>
        </Group>
        {secondsLeft > 0 && (
          <Text size="sm" c="dimmed" data-testid="resend-countdown">
            {t('signing.resendIn', { seconds: secondsLeft })}
          </Text>
        )}
      </Stack>
    </form>
  );
}

function StepTitle() {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="sm" c="dimmed">
        {t('signing.stepOf', { step: 2, total: 2 })}
      </Text>
      <Title order={2} size="h3" id="signing-otp-title">
        {t('signing.confirmTitle')}
      </Title>
    </div>
  );
}
