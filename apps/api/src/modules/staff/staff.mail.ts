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

/** What a removed (or no longer admin) member made: the keys and endpoints the e-mail lists. */
export interface MadeSummary {
  apiKeys: { name: string; prefix: string }[];
  webhookEndpoints: { url: string }[];
}

interface AccessLostTexts {
  subjects: Record<'removed' | 'demoted', (member: string, portal: string) => string>;
  removed: (member: string, by: string, portal: string) => string;
  demoted: (member: string, by: string, portal: string) => string;
  nothing: string;
  retired: string;
  live: string;
  keys: string;
  hooks: string;
  open: string;
  footer: string;
}

const accessLost: Record<Lang, AccessLostTexts> = {
  it: {
    subjects: {
      removed: (member, portal) => `${member} non fa più parte dello staff di ${portal}`,
      demoted: (member, portal) => `${member} non è più amministratore di ${portal}`,
    },
    removed: (member, by, portal) => `${by} ha rimosso ${member} dallo staff del portale ${portal}.`,
    demoted: (member, by, portal) =>
      `${by} ha tolto a ${member} il ruolo di amministratore del portale ${portal}.`,
    nothing: 'Non risultano chiavi API né webhook attivi creati da questa persona.',
    retired: 'Le chiavi API che aveva creato sono state revocate e i webhook disattivati:',
    live: 'Queste chiavi API e questi webhook che aveva creato funzionano ancora: revocali dalle Integrazioni se non servono più.',
    keys: 'Chiavi API',
    hooks: 'Webhook',
    open: 'Apri le Integrazioni',
    footer: 'Ricevi questo messaggio perché sei amministratore del portale.',
  },
  en: {
    subjects: {
      removed: (member, portal) => `${member} is no longer on the ${portal} staff`,
      demoted: (member, portal) => `${member} is no longer an admin of ${portal}`,
    },
    removed: (member, by, portal) => `${by} removed ${member} from the staff of the ${portal} portal.`,
    demoted: (member, by, portal) => `${by} took the admin role of the ${portal} portal from ${member}.`,
    nothing: 'This person made no API keys or webhooks that still work.',
    retired: 'The API keys they made were revoked and their webhooks disabled:',
    live: 'These API keys and webhooks they made still work: revoke them in Integrations if they are no longer needed.',
    keys: 'API keys',
    hooks: 'Webhooks',
    open: 'Open Integrations',
    footer: 'You receive this message because you are an admin of the portal.',
  },
  es: {
    subjects: {
      removed: (member, portal) => `${member} ya no forma parte del equipo de ${portal}`,
      demoted: (member, portal) => `${member} ya no es administrador de ${portal}`,
    },
    removed: (member, by, portal) => `${by} ha quitado a ${member} del equipo del portal ${portal}.`,
    demoted: (member, by, portal) =>
      `${by} ha quitado a ${member} el rol de administrador del portal ${portal}.`,
    nothing: 'Esta persona no creó claves API ni webhooks que sigan funcionando.',
    retired: 'Las claves API que creó se han revocado y sus webhooks se han desactivado:',
    live: 'Estas claves API y estos webhooks que creó siguen funcionando: revócalos en Integraciones si ya no hacen falta.',
    keys: 'Claves API',
    hooks: 'Webhooks',
    open: 'Abrir Integraciones',
    footer: 'Recibes este mensaje porque eres administrador del portal.',
  },
};

/**
 * To the portal's other admins when a member is removed or loses the admin role: who did it, and what
 * the member made that outlives them (revoked in the same step, or still working).
 */
export function accessLostEmail(opts: {
  to: string;
  kind: 'removed' | 'demoted';
  member: string;
  by: string;
  portalName: string;
  made: MadeSummary;
  retired: boolean;
  link: string;
  language: string;
}): EmailMessage {
  const t = accessLost[langOf(opts.language)];
  const what = opts.kind === 'removed' ? t.removed : t.demoted;
  const intro = what(opts.member, opts.by, opts.portalName);
  const keys = opts.made.apiKeys.map((k) => `${k.name} (${k.prefix}…)`);
  const hooks = opts.made.webhookEndpoints.map((w) => w.url);
  const any = keys.length + hooks.length > 0;
  const lead = !any ? t.nothing : opts.retired ? t.retired : t.live;
  const lists: [string, string[]][] = [
    [t.keys, keys],
    [t.hooks, hooks],
  ];
  const shown = lists.filter(([, items]) => items.length > 0);
  const text =
    `${intro}\n\n${lead}\n` +
    shown.map(([title, items]) => `\n${title}:\n${items.map((i) => `- ${i}`).join('\n')}\n`).join('') +
    `\n${opts.link}\n\n${t.footer}\n`;
  const html =
    `<p>${escapeHtml(intro)}</p><p>${escapeHtml(lead)}</p>` +
    shown
      .map(
        ([title, items]) =>
          `<p>${escapeHtml(title)}:</p><ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`,
      )
      .join('') +
    `<p><a href="${escapeHtml(opts.link)}">${escapeHtml(t.open)}</a></p><p>${escapeHtml(t.footer)}</p>`;
  return { to: opts.to, subject: t.subjects[opts.kind](opts.member, opts.portalName), text, html };
}
