/**
 * The account's e-mails, in it/en/es: an e-mail change's link to the new address and notice to the old
 * one; the notice of a second factor added or removed.
 */
import { escapeHtml, langOf } from '../../platform/account-mail';
import type { EmailMessage } from '../../platform/outbox';

const texts = {
  it: {
    confirmSubject: 'Conferma il tuo nuovo indirizzo e-mail',
    confirm: (user: string) =>
      `Ciao ${user},\n\nhai chiesto di usare questo indirizzo per il tuo accesso. Apri questo link entro 24 ore per confermarlo (vale una sola volta):`,
    open: 'Conferma l’indirizzo',
    ignore: 'Se non sei stato tu a chiederlo, ignora questo messaggio: non cambierà nulla.',
    noticeSubject: 'Richiesta di cambio dell’indirizzo e-mail',
    notice: (user: string, to: string) =>
      `Ciao ${user},\n\nè stato chiesto di sostituire questo indirizzo del tuo accesso con ${to}. Il cambio avviene solo quando il nuovo indirizzo lo conferma.\n\nSe non sei stato tu, cambia subito la password e chiudi le sessioni attive dal tuo profilo.`,
  },
  en: {
    confirmSubject: 'Confirm your new e-mail address',
    confirm: (user: string) =>
      `Hello ${user},\n\nyou asked to use this address for your account. Open this link within 24 hours to confirm it (it works only once):`,
    open: 'Confirm the address',
    ignore: 'If you did not ask for this, ignore this message: nothing will change.',
    noticeSubject: 'E-mail address change requested',
    notice: (user: string, to: string) =>
      `Hello ${user},\n\nsomeone asked to replace this address of your account with ${to}. The change happens only once the new address confirms it.\n\nIf this was not you, change your password now and sign out the active sessions from your profile.`,
  },
  es: {
    confirmSubject: 'Confirma tu nueva dirección de correo',
    confirm: (user: string) =>
      `Hola ${user}:\n\nhas pedido usar esta dirección para tu cuenta. Abre este enlace antes de 24 horas para confirmarla (solo sirve una vez):`,
    open: 'Confirmar la dirección',
    ignore: 'Si no lo has pedido tú, ignora este mensaje: no cambiará nada.',
    noticeSubject: 'Solicitud de cambio de la dirección de correo',
    notice: (user: string, to: string) =>
      `Hola ${user}:\n\nse ha pedido sustituir esta dirección de tu cuenta por ${to}. El cambio solo se hace cuando la nueva dirección lo confirma.\n\nSi no has sido tú, cambia ya la contraseña y cierra las sesiones activas desde tu perfil.`,
  },
};

const paragraphs = (text: string) =>
  text
    .split('\n\n')
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join('');

/** To the NEW address: the single-use link that makes the change. */
export function emailConfirmEmail(o: {
  to: string;
  userName: string;
  link: string;
  language?: string | null;
}): EmailMessage {
  const t = texts[langOf(o.language ?? undefined)];
  const intro = t.confirm(o.userName);
  return {
    to: o.to,
    subject: t.confirmSubject,
    text: `${intro}\n\n${o.link}\n\n${t.ignore}\n`,
    html:
      paragraphs(intro) +
      `<p><a href="${escapeHtml(o.link)}">${escapeHtml(t.open)}</a></p>` +
      `<p>${escapeHtml(o.link)}</p><p>${escapeHtml(t.ignore)}</p>`,
  };
}

/** To the OLD address: told of the request (no link: the change is made from the new address only). */
export function emailNoticeEmail(o: {
  to: string;
  userName: string;
  newEmail: string;
  language?: string | null;
}): EmailMessage {
  const t = texts[langOf(o.language ?? undefined)];
  const body = t.notice(o.userName, o.newEmail);
  return { to: o.to, subject: t.noticeSubject, text: `${body}\n`, html: paragraphs(body) };
}

/** A second factor added or removed, as the notice names it. */
export type FactorChange = 'totpAdded' | 'totpRemoved' | 'passkeyAdded' | 'passkeyRemoved';

const factorTexts = {
  it: {
    subject: 'Accesso in due passaggi modificato',
    totpAdded: 'è stata attivata un’app di autenticazione',
    totpRemoved: 'è stata disattivata l’app di autenticazione',
    passkeyAdded: (n: string) => `è stata aggiunta la passkey «${n}»`,
    passkeyRemoved: (n: string) => `è stata rimossa la passkey «${n}»`,
    body: (user: string, what: string) =>
      `Ciao ${user},\n\nnel tuo accesso ${what}. Serviva la password (o un codice).\n\nSe non sei stato tu, cambia subito la password, chiudi le sessioni attive dal tuo profilo e controlla l’accesso in due passaggi.`,
  },
  en: {
    subject: 'Two-factor sign-in changed',
    totpAdded: 'an authenticator app was turned on',
    totpRemoved: 'the authenticator app was turned off',
    passkeyAdded: (n: string) => `the passkey "${n}" was added`,
    passkeyRemoved: (n: string) => `the passkey "${n}" was removed`,
    body: (user: string, what: string) =>
      `Hello ${user},\n\non your account, ${what}. It took the password (or a code).\n\nIf this was not you, change your password now, sign out the active sessions from your profile and check your two-factor sign-in.`,
  },
  es: {
    subject: 'Acceso en dos pasos modificado',
    totpAdded: 'se ha activado una app de autenticación',
    totpRemoved: 'se ha desactivado la app de autenticación',
    passkeyAdded: (n: string) => `se ha añadido la llave de acceso «${n}»`,
    passkeyRemoved: (n: string) => `se ha eliminado la llave de acceso «${n}»`,
    body: (user: string, what: string) =>
      `Hola ${user}:\n\nen tu cuenta ${what}. Hacía falta la contraseña (o un código).\n\nSi no has sido tú, cambia ya la contraseña, cierra las sesiones activas desde tu perfil y revisa el acceso en dos pasos.`,
  },
};

/** To the account's address: a factor was added or removed (no link, nothing to click). */
export function factorChangedEmail(o: {
  to: string;
  userName: string;
  change: FactorChange;
  passkeyName?: string;
  language?: string | null;
}): EmailMessage {
  const t = factorTexts[langOf(o.language ?? undefined)];
  const name = o.passkeyName ?? '';
  const what =
    o.change === 'passkeyAdded'
      ? t.passkeyAdded(name)
      : o.change === 'passkeyRemoved'
        ? t.passkeyRemoved(name)
        : t[o.change];
  const body = t.body(o.userName, what);
  return { to: o.to, subject: t.subject, text: `${body}\n`, html: paragraphs(body) };
}
