import { useEffect, useState } from 'react';
import { Alert, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type ViewAsSession } from '@sportello/contracts';
import { peopleRoutes } from '@sportello/contracts/route-refs';
import { useNavigate } from 'react-router';
import { call } from '../../lib/api-client';
import { errorText } from '../../lib/error-text';
import { storage } from '../../lib/storage';

/** One exchange per code, whatever React does with effects (a code works once). */
const exchanges = new Map<string, Promise<ViewAsSession>>();

/**
 * `/{portal}/view-as#{code}`: the staff desk's "see as this contact" opens this tab. The code is read
 * from the fragment (never sent to a server, so in no log) and removed from the address at once; it is
 * single-use and good for a minute. Its session lives in this tab only (storage.setViewAs).
 */
export default function ViewAsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [code] = useState(() => {
    const c = decodeURIComponent(window.location.hash.slice(1));
    window.history.replaceState(window.history.state, '', window.location.pathname);
    return c;
  });
  const [error, setError] = useState<string | null>(() =>
    code ? null : t('viewAs.failed', { reason: t('viewAs.ended') }),
  );
  useEffect(() => {
    if (!code) return;
    let p = exchanges.get(code);
    if (!p) {
      p = call(peopleRoutes.viewAsExchange, { body: { code } });
      exchanges.set(code, p);
    }
    let live = true;
    p.then(
      (s) => {
        if (!live) return;
        storage.setViewAs(s.token, { name: s.referentName, expiresAt: s.expiresAt });
        void navigate(`/${encodeURIComponent(s.company)}/${s.contactId}`, { replace: true });
      },
      (e: unknown) => live && setError(t('viewAs.failed', { reason: errorText(e, t) })),
    );
    return () => {
      live = false;
    };
  }, [code, navigate, t]);
  return (
    <Stack component="main" align="center" justify="center" mih="100dvh" p="md">
      {error ? (
        <Alert color="red" role="alert" maw={480}>
          {error}
        </Alert>
      ) : (
        <>
          <Loader aria-hidden />
          <Text>{t('viewAs.opening')}</Text>
        </>
      )}
    </Stack>
  );
}
