/** The e-mails about an account (recovery, invitation), in it/en/es: auth sends one, the import the other. */
import type { EmailMessage } from './outbox';

type Lang = 'it' | 'en' | 'es';

const texts: Record<
  Lang,
  { subject: string; body: (user: string, portal: string) => string; ignore: string; open: string }
> = {
  it: {
    subject: 'Reimposta la tua password',
    body: (user, portal) =>
      `Ciao ${user},\n\nabbiamo ricevuto una richiesta di reimpostare la password del tuo accesso${portal ? ` al portale ${portal}` : ''}. Apri questo link entro un'ora per sceglierne una nuova (il link vale una sola volta):`,
    ignore: 'Se non sei stato tu a chiederlo, ignora questo messaggio: la tua password attuale resta valida.',
    open: 'Scegli una nuova password',
  },
  en: {
    subject: 'Reset your password',
    body: (user, portal) =>
      `Hello ${user},\n\nwe received a request to reset the password of your account${portal ? ` on the ${portal} portal` : ''}. Open this link within one hour to choose a new one (it works only once):`,
    ignore: 'If you did not ask for this, ignore this message: your current password stays valid.',
    open: 'Choose a new password',
  },
  es: {
    subject: 'Restablece tu contraseña',
    body: (user, portal) =>
      `Hola ${user}:\n\nhemos recibido una solicitud para restablecer la contraseña de tu cuenta${portal ? ` del portal ${portal}` : ''}. Abre este enlace antes de una hora para elegir una nueva (solo sirve una vez):`,
    ignore: 'Si no lo has pedido tú, ignora este mensaje: tu contraseña actual sigue siendo válida.',
    open: 'Elige una nueva contraseña',
  },
};

export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function langOf(language: string | undefined): Lang {
  const two = (language ?? 'it').slice(0, 2).toLowerCase();
  return two === 'en' || two === 'es' ? two : 'it';
}

/** The recovery e-mail, in the language asked for (the screen's, else the portal's; Italian by default). */
export function recoveryEmail(opts: {
  to: string;
  userName: string;
  portalName?: string | undefined;
  link: string;
  language?: string | undefined;
}): EmailMessage {
  const t = texts[langOf(opts.language)];
  const intro = t.body(opts.userName, opts.portalName ?? '');
  return {
    to: opts.to,
    subject: t.subject,
    text: `${intro}\n\n${opts.link}\n\n${t.ignore}\n`,
    html:
      intro
        .split('\n\n')
        .map((p) => `<p>${escapeHtml(p)}</p>`)
        .join('') +
      `<p><a href="${escapeHtml(opts.link)}">${escapeHtml(t.open)}</a></p>` +
      `<p>${escapeHtml(opts.link)}</p><p>${escapeHtml(t.ignore)}</p>`,
  };
}

const invitationTexts: Record<
  Lang,
  {
    subject: (portal: string) => string;
    hello: string;
    created: (portal: string, user: string) => string;
    choose: string;
    ignore: string;
  }
> = {
  it: {
    subject: (p) => `Invito a ${p}`,
    hello: 'Buongiorno,',
    created: (p, u) => `è stato creato per te un accesso a ${p} con il nome utente "${u}".`,
    choose: 'Per attivarlo scegli una password da questo link, valido 7 giorni:',
    ignore: 'Se non aspettavi questo messaggio puoi ignorarlo.',
  },
  en: {
    subject: (p) => `Invitation to ${p}`,
    hello: 'Hello,',
    created: (p, u) => `an account on ${p} has been created for you with the user name "${u}".`,
    choose: 'To activate it, choose a password with this link, valid for 7 days:',
    ignore: 'If you were not expecting this message, you can ignore it.',
  },
  es: {
    subject: (p) => `Invitación a ${p}`,
    hello: 'Hola:',
    created: (p, u) => `se ha creado para ti una cuenta en ${p} con el nombre de usuario "${u}".`,
    choose: 'Para activarla, elige una contraseña con este enlace, válido durante 7 días:',
    ignore: 'Si no esperabas este mensaje, puedes ignorarlo.',
  },
};

/**
 * The invitation, in the portal's language. The user has never chosen one yet, so a portal that does
 * not speak English adds the English text below its own.
 */
export function invitationEmail(opts: {
  to: string;
  userName: string;
  portalName: string;
  link: string;
  language?: string | undefined;
}): EmailMessage {
  const first = langOf(opts.language);
  const langs: Lang[] = first === 'en' ? ['en'] : [first, 'en'];
  const [p, u, l] = [escapeHtml(opts.portalName), escapeHtml(opts.userName), escapeHtml(opts.link)];
  const text = langs
    .map((lang) => {
      const t = invitationTexts[lang];
      return [t.hello, '', t.created(opts.portalName, opts.userName), t.choose, opts.link, '', t.ignore].join(
        '\n',
      );
    })
    .join('\n\n---\n\n');
  const html = langs
    .map((lang) => {
      const t = invitationTexts[lang];
      const created = escapeHtml(t.created(opts.portalName, opts.userName))
        .replace(p, `<b>${p}</b>`)
        .replace(`&quot;${u}&quot;`, `<b>${u}</b>`);
      return (
        `<p>${escapeHtml(t.hello)}</p><p>${created}</p>` +
        `<p>${escapeHtml(t.choose)}<br><a href="${l}">${l}</a></p><p>${escapeHtml(t.ignore)}</p>`
      );
    })
    .join('<hr>');
  const subject = langs.map((lang) => invitationTexts[lang].subject(opts.portalName)).join(' / ');
  return { to: opts.to, subject, text, html };
}
