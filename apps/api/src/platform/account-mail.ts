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

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function langOf(language: string | undefined): Lang {
  const two = (language ?? 'it').slice(0, 2).toLowerCase();
  return two === 'en' || two === 'es' ? two : 'it';
}

/** The recovery e-mail, in the portal's language (Italian when no portal is named). */
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
