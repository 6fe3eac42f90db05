import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Checkbox, Stack, Text, Title } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { applyLanguage, isLanguage } from '../../i18n';
import { meQuery, portalSettingsQuery } from '../../lib/tenant';
import { storage } from '../../lib/storage';
import { useLogin } from './api/login';
import { useRecovery } from './api/recovery';
import { AuthFrame } from '../../ui/auth-frame';
import type { SecondFactorAnswer, SessionAnswer } from '@sportello/contracts';
import { isSecondFactor } from '@sportello/contracts/auth-codes';
import { SecondFactorForm } from './components/second-factor-form';
import { usePageTitle } from '../../ui/page-title';
import { AuthErrorAlert, IdentityField, SignInPasswordField } from '../../ui/auth-fields';
import { signInShell, signInShellState } from '../../lib/sign-in-shell';

/** Where to go after signing in: back to the deep link the guard refused, else the portal's layout. */
export function afterLoginPath(from: unknown, company: string | undefined): string {
  if (
    typeof from === 'string' &&
    from.startsWith('/') &&
    !from.startsWith('//') &&
    !/^\/[^/]*\/login/i.test(from)
  )
    return from;
  return company ? `/${encodeURIComponent(company)}` : '/';
}

/** `/{company?}/login`: sign in with user name or e-mail, or ask for a recovery link (`?recover`). */
export default function LoginPage() {
  const { company } = useParams();
  const [params] = useSearchParams();
  const isRecovering = params.has('recover');
  // Remember whether the user switched forms, so focus follows only a switch, not the first load.
  const [hasSwitched, setHasSwitched] = useState(false);
  return (
    <AuthFrame company={company ?? storage.get('company')}>
      {isRecovering ? (
        <RecoveryForm company={company} focusHeading={hasSwitched} onSwitch={() => setHasSwitched(true)} />
      ) : (
        <LoginForm company={company} focusHeading={hasSwitched} onSwitch={() => setHasSwitched(true)} />
      )}
    </AuthFrame>
  );
}

interface FormProps {
  company: string | undefined;
  focusHeading: boolean;
  onSwitch: () => void;
}

function useHeadingFocus(focus: boolean) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return ref;
}

function LoginForm({ company, focusHeading, onSwitch }: FormProps) {
  const { t, i18n } = useTranslation();
  usePageTitle(t('auth.loginTitle'));
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const heading = useHeadingFocus(focusHeading);
  // The form the server drew, which this one replaces: what was typed there, and where (lib/sign-in-shell).
  const [shell] = useState(signInShellState);
  const [userName, setUserName] = useState(shell?.userName ?? '');
  const [password, setPassword] = useState(shell?.password ?? '');
  const [remember, setRemember] = useState(shell?.remember ?? false);
  const [isSubmitted, setIsSubmitted] = useState(false);
  const [challenge, setChallenge] = useState<SecondFactorAnswer['secondFactor'] | null>(null);
  const mutation = useLogin();
  const form = useRef<HTMLFormElement>(null);
  // The drawn page goes once this one looks the same: with the portal's header (AuthFrame's same query).
  const settings = useQuery({ ...portalSettingsQuery(company ?? ''), enabled: !!company, retry: false });
  const isDrawn = !company || !settings.isPending;

  const signedIn = ({ token }: SessionAnswer, remember: boolean) => {
    storage.setToken(token, remember);
    // Nothing cached for a previous user may show to this one.
    queryClient.removeQueries();
    // The language chosen in the profile follows the user to a new device: applied (and remembered
    // here) as soon as the user is known. The layout's own request for the user is this one.
    void queryClient.fetchQuery(meQuery()).then(
      (me) => {
        if (me.language && me.language !== i18n.language) applyLanguage(me.language);
      },
      () => {
        // The layout asks again and shows the error.
      },
    );
    const from = (location.state as { from?: unknown } | null)?.from;
    navigate(afterLoginPath(from, company), { replace: true });
  };

  const send = (v: { userName: string; password: string; remember: boolean }) => {
    setIsSubmitted(true);
    if (!v.userName.trim() || !v.password) return;
    mutation.mutate(
      { userName: v.userName.trim(), password: v.password, remember: v.remember },
      {
        onSuccess: (answer) => {
          if (isSecondFactor(answer)) {
            setPassword('');
            setChallenge(answer.secondFactor);
          } else signedIn(answer, v.remember);
        },
      },
    );
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send({ userName, password, remember });
  };

  const tookShell = useRef(false);
  useLayoutEffect(() => {
    if (!shell || !isDrawn || tookShell.current) return;
    tookShell.current = true;
    // Read again at the commit, not the render: the first screen renders time-sliced, and between the
    // two the user may have typed, ticked "remember" or sent the drawn form (a send lost here left the
    // user on the sign-in page).
    const drawn = signInShellState() ?? shell;
    signInShell()?.remove();
    setUserName(drawn.userName);
    setPassword(drawn.password);
    setRemember(drawn.remember);
    const field = drawn.focused ? form.current?.elements.namedItem(drawn.focused) : null;
    if (field instanceof HTMLElement) field.focus();
    // The drawn page is the external system read here, once: its state becomes the form's.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (drawn.submitted) send(drawn);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the drawn page is taken over
  }, [shell, isDrawn]);

  if (challenge)
    return (
      <SecondFactorForm
        challenge={challenge}
        onSignedIn={(session) => signedIn(session, remember)}
        onRestart={() => {
          mutation.reset();
          setIsSubmitted(false);
          setChallenge(null);
        }}
      />
    );

  return (
    <form onSubmit={onSubmit} noValidate ref={form}>
      <Stack gap="md">
        <Title order={1} size="h2" ref={heading} tabIndex={-1}>
          {t('auth.loginTitle')}
        </Title>
        <AuthErrorAlert error={mutation.error} t={t} />
        <IdentityField
          kind="userName"
          value={userName}
          onChange={setUserName}
          submitted={isSubmitted}
          t={t}
          autoFocus
        />
        <SignInPasswordField value={password} onChange={setPassword} submitted={isSubmitted} t={t} />
        <Checkbox
          label={t('account.login.rememberMe')}
          description={t('account.login.rememberMeHint')}
          checked={remember}
          onChange={(e) => setRemember(e.currentTarget.checked)}
          name="remember"
        />
        <Button type="submit" loading={mutation.isPending} fullWidth>
          {t('auth.login')}
        </Button>
        <Anchor component={Link} to={{ search: '?recover' }} onClick={onSwitch} size="sm" ta="center">
          {t('auth.forgotPassword')}
        </Anchor>
      </Stack>
    </form>
  );
}

function RecoveryForm({ company, focusHeading, onSwitch }: FormProps) {
  const { t, i18n } = useTranslation();
  usePageTitle(t('auth.recoveryTitle'));
  const heading = useHeadingFocus(focusHeading);
  const [userName, setUserName] = useState('');
  const [isSubmitted, setIsSubmitted] = useState(false);
  const mutation = useRecovery();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setIsSubmitted(true);
    if (!userName.trim()) return;
    // The e-mail is written in the language of this screen.
    const language = isLanguage(i18n.language) ? i18n.language : undefined;
    mutation.mutate({ userName: userName.trim(), company: company || undefined, language });
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Title order={1} size="h2" ref={heading} tabIndex={-1}>
          {t('auth.recoveryTitle')}
        </Title>
        {mutation.isSuccess ? (
          <Alert color="green" variant="light" icon={<IconMailCheck aria-hidden />} role="status">
            {t('auth.recoverySent')}
          </Alert>
        ) : (
          <>
            <Text size="sm">{t('auth.recoveryIntro')}</Text>
            <AuthErrorAlert error={mutation.error} t={t} />
            <IdentityField
              kind="userName"
              value={userName}
              onChange={setUserName}
              submitted={isSubmitted}
              t={t}
            />
            <Button type="submit" loading={mutation.isPending} fullWidth>
              {t('common.send')}
            </Button>
          </>
        )}
        <Anchor component={Link} to={{ search: '' }} onClick={onSwitch} size="sm" ta="center">
          {t('auth.backToLogin')}
        </Anchor>
      </Stack>
    </form>
  );
}
