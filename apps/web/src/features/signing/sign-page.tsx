import { useEffect, useState } from 'react';
import { Grid, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import type { SigningDocument } from '@sportello/contracts';
import { ApiRequestError } from '../../lib/api-client';
import { formatDate } from '../../lib/format';
import { useFirstAnswerTimeSliced } from '../../lib/time-sliced';
import { FilePreview } from '../../ui/file-preview';
import { PublicFrame, usePublicPortal } from '../../ui/public-frame';
import { ListError } from '../../ui/list-states';
import { useSignDocument } from './api/sign';
import { useSigningDocument } from './api/signing-document';
import { SigningNotFound } from './components/not-found';
import { OtpStep } from './components/otp-step';
import { ReviewStep } from './components/review-step';
import { SignedView } from './components/signed-view';
import { signingErrorMessage } from './errors';
import { usePageTitle } from '../../ui/page-title';

/** What the review step hands the code step (kept in the history entry, so a reload keeps it). */
interface ConfirmState {
  fullName?: string;
}

/**
 * `/{company}/documents/{documentkey}` and its `/confirm` step (SPEC A2), open without sign-in: the
 * document, its signer, then accept (and, for OTP requests, confirm with a code sent by SMS).
 */
export default function SignPage() {
  const { company = '', documentkey = '' } = useParams();
  const portal = usePublicPortal(company);
  return (
    <PublicFrame portal={portal} maxWidth={1240}>
      {company && documentkey ? (
        <SignContent company={company} documentKey={documentkey} />
      ) : (
        <SigningNotFound />
      )}
    </PublicFrame>
  );
}

function SignContent({ company, documentKey }: { company: string; documentKey: string }) {
  const { t } = useTranslation();
  // Its first answer drawn in a time-sliced render (lib/time-sliced); on a first load asked for by
  // app/early-data.ts.
  const query = useFirstAnswerTimeSliced(useSigningDocument(company, documentKey));
  usePageTitle(
    query.data ? `${query.data.documentName} · ${t('signing.pageTitle')}` : t('signing.pageTitle'),
  );
  if (query.isPending) return <LoadingView />;
  if (query.isError) {
    if (query.error instanceof ApiRequestError && query.error.status === 404) return <SigningNotFound />;
    return <ListError onRetry={() => void query.refetch()} />;
  }
  return <DocumentView company={company} documentKey={documentKey} doc={query.data} />;
}

function DocumentView({
  company,
  documentKey,
  doc,
}: {
  company: string;
  documentKey: string;
  doc: SigningDocument;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const signing = useSignDocument(company, documentKey);
  const [isJustSigned, setIsJustSigned] = useState(false);
  const isConfirmStep = /\/confirm\/?$/i.test(location.pathname);
  const reviewPath = `/${encodeURIComponent(company)}/documents/${encodeURIComponent(documentKey)}`;
  const fullName = (location.state as ConfirmState | null)?.fullName ?? '';
  const serverError = signing.error ? signingErrorMessage(signing.error) : null;

  useEffect(() => {
    if (isJustSigned) document.getElementById('signing-done-title')?.focus();
  }, [isJustSigned]);

  const sign = async (body: { fullName: string; otpCode?: string }): Promise<boolean> => {
    try {
      await signing.mutateAsync({ ...body, accept: true });
      setIsJustSigned(true);
      return true;
    } catch {
      return false;
    }
  };

  let panel;
  if (doc.status === 'signed') {
    panel = <SignedView doc={doc} isJustSigned={isJustSigned} />;
  } else if (!isConfirmStep) {
    panel = (
      <ReviewStep
        doc={doc}
        initialName={fullName}
        isSigning={signing.isPending}
        serverError={serverError}
        onSubmit={(name) => {
          if (doc.requireOtp)
            void navigate(`${reviewPath}/confirm`, { state: { fullName: name } satisfies ConfirmState });
          else void sign({ fullName: name });
        }}
      />
    );
  } else if (!doc.requireOtp || !fullName) {
    // The code step needs the accepted name: without it (a typed or bookmarked URL) start from the review.
    return <Navigate to={reviewPath} replace />;
  } else {
    panel = (
      <OtpStep
        company={company}
        documentKey={documentKey}
        doc={doc}
        isSigning={signing.isPending}
        serverError={serverError}
        onSign={(otpCode) => sign({ fullName, otpCode })}
        onCodeSent={() => signing.reset()}
        onBack={() => void navigate(reviewPath, { state: { fullName } satisfies ConfirmState })}
      />
    );
  }

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {doc.documentName}
        </Title>
        <Group gap="lg" mt={4} wrap="wrap">
          <Text size="sm">
            <Text span c="dimmed" size="sm">
              {t('signing.signerLabel')}:
            </Text>{' '}
            <Text span fw={600} size="sm" data-testid="signer-name">
              {doc.signerName}
            </Text>
          </Text>
          <Text size="sm">
            <Text span c="dimmed" size="sm">
              {t('signing.companyLabel')}:
            </Text>{' '}
            {doc.companyName}
          </Text>
          {doc.expiresAt && doc.status === 'pending' && (
            <Text size="sm">{t('signing.expiresOn', { date: formatDate(doc.expiresAt) })}</Text>
          )}
        </Group>
      </div>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4 }} order={{ base: 1, md: 2 }}>
          <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
            {panel}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }} order={{ base: 2, md: 1 }}>
          <FilePreview
            url={doc.documentUrl}
            name={
              doc.status === 'signed'
                ? t('signing.signedDocumentName', { name: doc.documentName })
                : doc.documentName
            }
            contentType={doc.contentType}
          />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function LoadingView() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" role="status" aria-label={t('common.loading')}>
      <Skeleton height={32} width="60%" />
      <Skeleton height={16} width="40%" />
      <Skeleton height={480} />
    </Stack>
  );
}
