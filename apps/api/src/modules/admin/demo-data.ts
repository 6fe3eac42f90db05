/**
 * The demo portal: an Italian service company (IT support and facility maintenance) with two client
 * companies, written as an ordinary import document so it goes through the importer like real data.
 * Dates are relative to `now`, so the demo always looks current (recent tickets, contracts that are
 * active, expiring and expired). Everything is deterministic for a given `now`.
 *
 * Sign in with `demo`, `giulia.bianchi` or `luca.verdi`, password DEMO_PASSWORD.
 */
import type { ImportDocumentInput } from '@sportello/contracts';
import { avatarPng, demoLogoPng } from './demo-assets';
import { DEMO_PASSWORD, DEMO_PORTAL_KEY, DEMO_TIME_ZONE, demoKit, demoUser } from './demo-kit';
import { rossiImpianti } from './demo-rossi';
import { bottegaVerdi } from './demo-verdi';

export { DEMO_PASSWORD, DEMO_PORTAL_KEY, DEMO_TIME_ZONE };
/** Public capabilities of the demo (known keys, so the demo's links can be shown and tested). */
export const DEMO_KEYS = {
  signatureWithOtp: 'demo-firma-contratto-4f9a2c7e1b8d3a60',
  signatureWithoutOtp: 'demo-firma-privacy-9b3e5d1f7a2c4e80',
  appointment: 'demo-sopralluogo-8c1e4b2a6d3f',
  task: 'demo-intervento-3d7f9e1a5c2b',
} as const;

export async function buildDemoDocument(now: Date): Promise<ImportDocumentInput> {
  const k = demoKit(now);
  const { year, day, png, pdf } = k;
  return {
    formatVersion: 1,
    portals: [
      {
        webPortalKey: DEMO_PORTAL_KEY,
        webPortalName: 'Sportello Assistenza',
        logo: png('logo-sportello.png', demoLogoPng()),
        baseColor: '#0b7285',
        customCss: '.portal-footer a { text-decoration: underline; }\n',
        footerCustomHtml:
          '<p><strong>Sportello Assistenza Srl</strong> · Via dei Mille 24, 40121 Bologna (BO) · P.IVA IT01234567890</p>' +
          '<p>Assistenza: <a href="tel:+390510000000">051 000 0000</a> · <a href="mailto:assistenza@sportello.example">assistenza@sportello.example</a></p>',
        disableHtmlEditor: false,
        enableServiceContracts: true,
        privacyHtml:
          '<h1>Informativa sulla privacy</h1>' +
          '<p>Ai sensi del Regolamento (UE) 2016/679 (GDPR), Sportello Assistenza Srl, con sede in Via dei Mille 24, Bologna, titolare del trattamento, informa che i dati personali raccolti tramite questo portale sono trattati per:</p>' +
          '<ul><li>gestire le richieste di assistenza e gli interventi;</li><li>adempiere agli obblighi contrattuali, amministrativi e fiscali;</li><li>inviare comunicazioni di servizio.</li></ul>' +
          '<h2>Conservazione</h2><p>I dati sono conservati per la durata del contratto e, successivamente, per il tempo previsto dalla legge.</p>' +
          '<h2>Diritti</h2><p>Può esercitare i diritti di accesso, rettifica, cancellazione e opposizione scrivendo a <a href="mailto:privacy@sportello.example">privacy@sportello.example</a>.</p>',
        timeZone: DEMO_TIME_ZONE,
        defaultLanguage: 'it-IT',
        ticketTypes: [
          { id: 1, name: 'Guasto', color: '#e03131' },
          { id: 2, name: 'Richiesta di assistenza', color: '#1971c2' },
          { id: 3, name: 'Manutenzione programmata', color: '#2f9e44' },
        ],
        statusSteps: [
          { id: 1, name: 'Nuovo', taskStatus: 0, isDefault: true },
          { id: 2, name: 'In lavorazione', taskStatus: 1 },
          { id: 3, name: 'In attesa cliente', taskStatus: 3 },
          { id: 4, name: 'Chiuso', taskStatus: 2, isClosing: true },
        ],
        groups: [
          { id: 1, name: 'Helpdesk IT' },
          { id: 2, name: 'Manutenzione impianti' },
        ],
        agents: [
          {
            id: 1,
            displayName: 'Marco Ferri',
            firstName: 'Marco',
            lastName: 'Ferri',
            email: 'marco.ferri@sportello.example',
            profileImage: png('marco-ferri.png', avatarPng('#1971c2')),
          },
          {
            id: 2,
            displayName: 'Sara Conti',
            firstName: 'Sara',
            lastName: 'Conti',
            email: 'sara.conti@sportello.example',
          },
          {
            id: 3,
            displayName: 'Davide Galli',
            firstName: 'Davide',
            lastName: 'Galli',
            email: 'davide.galli@sportello.example',
          },
        ],
        tags: [
          { id: 1, name: 'Server', tagGroupName: 'Infrastruttura IT' },
          { id: 2, name: 'Rete', tagGroupName: 'Infrastruttura IT' },
          { id: 3, name: 'Climatizzazione', tagGroupName: 'Impianti' },
          { id: 4, name: 'Elettrico', tagGroupName: 'Impianti' },
          { id: 5, name: 'Prioritario', tagGroupName: 'Livello di servizio' },
        ],
        publicFiles: [
          {
            id: 1,
            fileName: 'Condizioni generali di servizio.pdf',
            file: await pdf('condizioni-generali.pdf', {
              title: 'Condizioni generali di servizio',
              lines: [
                '1. Le richieste si aprono dal portale, per telefono o per e-mail.',
                '2. Orari del servizio: dal lunedì al venerdì, 8:30 - 18:00.',
                '3. I tempi di intervento dipendono dal contratto sottoscritto.',
                '4. Gli interventi fuori contratto sono fatturati a consuntivo.',
              ],
            }),
          },
          {
            id: 2,
            fileName: `Listino prezzi ${year}.pdf`,
            file: await pdf(`listino-${year}.pdf`, {
              title: `Listino prezzi ${year}`,
              lines: [
                'Assistenza remota: 55,00 EUR/ora',
                'Intervento on-site: 70,00 EUR/ora + diritto di chiamata 35,00 EUR',
                'Manutenzione climatizzatore: da 90,00 EUR',
              ],
            }),
          },
        ],
        companies: [await rossiImpianti(k), await bottegaVerdi(k)],
        signatureRequests: [
          {
            documentKey: DEMO_KEYS.signatureWithOtp,
            contactId: 11,
            documentName: `Contratto di manutenzione ${year + 1}`,
            file: await pdf('contratto-da-firmare.pdf', {
              title: `Contratto di manutenzione ${year + 1}`,
              subtitle: 'Rossi Impianti Srl - rinnovo annuale',
              lines: [
                'Oggetto: manutenzione server, backup e impianti.',
                `Durata: dal 01/01/${year + 1} per 12 mesi.`,
                'Canone mensile: 240,00 EUR + IVA.',
                '',
                'La firma avviene con un codice inviato per SMS al numero del referente.',
              ],
            }),
            requireOtp: true,
            expiresAt: day(30),
          },
          {
            documentKey: DEMO_KEYS.signatureWithoutOtp,
            contactId: 21,
            documentName: 'Consenso al trattamento dei dati',
            file: await pdf('consenso-privacy.pdf', {
              title: 'Consenso al trattamento dei dati',
              subtitle: 'Bottega Verdi Snc',
              lines: ["Il sottoscritto dichiara di aver letto l'informativa sulla privacy."],
            }),
            requireOtp: false,
          },
        ],
        appointmentLinks: [
          {
            eventKey: DEMO_KEYS.appointment,
            title: 'Sopralluogo tecnico',
            agentId: 3,
            defaultDurationMinutes: 60,
            slotMinutes: 30,
            daysAhead: 30,
            weeklyHours: {
              mon: [
                ['09:00', '13:00'],
                ['14:00', '18:00'],
              ],
              tue: [
                ['09:00', '13:00'],
                ['14:00', '18:00'],
              ],
              wed: [['09:00', '13:00']],
              thu: [
                ['09:00', '13:00'],
                ['14:00', '18:00'],
              ],
              fri: [['09:00', '13:00']],
            },
          },
        ],
        taskLinks: [{ eventKey: DEMO_KEYS.task, ticketId: 1002 }],
      },
    ],
    users: [
      demoUser('demo', 'demo@sportello.example', 11, 22),
      demoUser('giulia.bianchi', 'giulia.bianchi@rossi-impianti.example', 12),
      demoUser('luca.verdi', 'luca@bottegaverdi.example', 21),
    ],
  };
}
