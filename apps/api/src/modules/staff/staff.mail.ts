import type { EmailMessage } from '../../platform/outbox';
import { escapeHtml, langOf } from '../../platform/account-mail';

type Lang = ReturnType<typeof langOf>;

interface Texts {
  subject: (portal: string) => string;
  body: (name: string, portal: string) => string;
  open: string;
  footer: string;
}

const invite: Record<Lang, Texts> = {
  it: {
    subject: (portal) => `Sei stato invitato nello staff di ${portal}`,
    body: (name, portal) =>
      `Ciao ${name},\n\nsei stato invitato a rispondere ai clienti del portale ${portal}. Apri questo link entro 7 giorni per scegliere la tua password (il link vale una sola volta):`,
    open: 'Scegli la password',
    footer: 'Se non ti aspettavi questo invito, ignora questo messaggio.',
  },
  en: {
    subject: (portal) => `You are invited to the ${portal} staff desk`,
    body: (name, portal) =>
      `Hello ${name},\n\nyou have been invited to answer the customers of the ${portal} portal. Open this link within 7 days to choose your password (it works only once):`,
    open: 'Choose your password',
    footer: 'If you did not expect this invitation, ignore this message.',
  },
  es: {
    subject: (portal) => `Te han invitado al equipo de ${portal}`,
    body: (name, portal) =>
      `Hola ${name}:\n\nte han invitado a atender a los clientes del portal ${portal}. Abre este enlace antes de 7 días para elegir tu contraseña (solo sirve una vez):`,
    open: 'Elige tu contraseña',
    footer: 'Si no esperabas esta invitación, ignora este mensaje.',
  },
};

const recovery: Record<Lang, Texts> = {
  it: {
    subject: (portal) => `Reimposta la password dello staff di ${portal}`,
    body: (name, portal) =>
      `Ciao ${name},\n\nabbiamo ricevuto una richiesta di reimpostare la tua password dello staff del portale ${portal}. Apri questo link entro un'ora per sceglierne una nuova (il link vale una sola volta):`,
    open: 'Scegli una nuova password',
    footer: 'Se non sei stato tu a chiederlo, ignora questo messaggio: la tua password attuale resta valida.',
  },
  en: {
    subject: (portal) => `Reset your ${portal} staff password`,
    body: (name, portal) =>
      `Hello ${name},\n\nwe received a request to reset your staff password of the ${portal} portal. Open this link within one hour to choose a new one (it works only once):`,
    open: 'Choose a new password',
    footer: 'If you did not ask for this, ignore this message: your current password stays valid.',
  },
  es: {
    subject: (portal) => `Restablece tu contraseña del equipo de ${portal}`,
    body: (name, portal) =>
      `Hola ${name}:\n\nhemos recibido una solicitud para restablecer tu contraseña del equipo del portal ${portal}. Abre este enlace antes de una hora para elegir una nueva (solo sirve una vez):`,
    open: 'Elige una nueva contraseña',
    footer: 'Si no lo has pedido tú, ignora este mensaje: tu contraseña actual sigue siendo válida.',
  },
};

/** To a staff user who already signs in: a portal was added; the link is the portal's desk. */
const added: Record<Lang, Texts> = {
  it: {
    subject: (portal) => `Ora fai parte dello staff di ${portal}`,
    body: (name, portal) =>
      `Ciao ${name},\n\nora puoi rispondere anche ai clienti del portale ${portal}, con la password che usi già. Apri il desk:`,
    open: 'Apri il desk',
    footer: 'Se non ti aspettavi questo messaggio, avvisa un amministratore del portale.',
  },
  en: {
    subject: (portal) => `You are now on the ${portal} staff desk`,
    body: (name, portal) =>
      `Hello ${name},\n\nyou can now also answer the customers of the ${portal} portal, with the password you already use. Open the desk:`,
    open: 'Open the desk',
    footer: 'If you did not expect this message, tell an administrator of the portal.',
  },
  es: {
    subject: (portal) => `Ahora formas parte del equipo de ${portal}`,
    body: (name, portal) =>
      `Hola ${name}:\n\nahora también puedes atender a los clientes del portal ${portal}, con la contraseña que ya usas. Abre el escritorio:`,
    open: 'Abrir el escritorio',
    footer: 'Si no esperabas este mensaje, avisa a un administrador del portal.',
  },
};

const textsOf = { invite, recovery, added } as const;

/** A staff invitation, recovery or added-to-portal e-mail, in the portal's default language. */
export function staffLinkEmail(opts: {
  kind: 'invite' | 'recovery' | 'added';
  to: string;
  displayName: string;
  portalName: string;
  link: string;
  language: string;
}): EmailMessage {
  const t = textsOf[opts.kind][langOf(opts.language)];
  const intro = t.body(opts.displayName, opts.portalName);
  return {
    to: opts.to,
    subject: t.subject(opts.portalName),
    text: `${intro}\n\n${opts.link}\n\n${t.footer}\n`,
    html:
      intro
        .split('\n\n')
        .map((p) => `<p>${escapeHtml(p)}</p>`)
        .join('') +
      `<p><a href="${escapeHtml(opts.link)}">${escapeHtml(t.open)}</a></p>` +
      `<p>${escapeHtml(opts.link)}</p><p>${escapeHtml(t.footer)}</p>`,
  };
}
