/**
 * The demo portal: an Italian service company (IT support and facility maintenance) with two client
 * companies, written as an ordinary import document so it goes through the importer like real data.
 * Dates are relative to `now`, so the demo always looks current (recent tickets, contracts that are
 * active, expiring and expired). Everything is deterministic for a given `now`.
 *
 * Sign in with `demo`, `giulia.bianchi` or `luca.verdi`, password DEMO_PASSWORD.
 */
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import {
  permissionFlags,
  type FileRef,
  type ImportDocumentInput,
  type PermissionFlag,
} from '@sportello/contracts';
import { avatarPng, demoLogoPng, floorPlanPng, makePdf, screenshotPng, type PdfSpec } from './demo-assets';

dayjs.extend(utc);
dayjs.extend(timezone);

export const DEMO_PORTAL_KEY = 'demo';
export const DEMO_PASSWORD = 'Sportello-Demo-2026';
export const DEMO_TIME_ZONE = 'Europe/Rome';
/** Public capabilities of the demo (known keys, so the demo's links can be shown and tested). */
export const DEMO_KEYS = {
  signatureWithOtp: 'demo-firma-contratto-4f9a2c7e1b8d3a60',
  signatureWithoutOtp: 'demo-firma-privacy-9b3e5d1f7a2c4e80',
  appointment: 'demo-sopralluogo-8c1e4b2a6d3f',
  task: 'demo-intervento-3d7f9e1a5c2b',
} as const;

type Input<K extends keyof NonNullable<ImportDocumentInput['portals']>[number]> = NonNullable<
  NonNullable<ImportDocumentInput['portals']>[number][K]
>;
type CompanyInput = Input<'companies'>[number];
type TicketInput = NonNullable<CompanyInput['tickets']>[number];

const ALL_PERMISSIONS = Object.fromEntries(permissionFlags.map((f) => [f, true])) as Record<
  PermissionFlag,
  true
>;

export async function buildDemoDocument(now: Date): Promise<ImportDocumentInput> {
  const local = dayjs(now).tz(DEMO_TIME_ZONE);
  const year = local.year();
  /** A moment `days` ago at a local time of day, as an ISO date-time. */
  const ago = (days: number, hour = 9, minute = 0) =>
    local.subtract(days, 'day').hour(hour).minute(minute).second(0).millisecond(0).toISOString();
  /** A day relative to today (negative: past), as YYYY-MM-DD in the portal's zone. */
  const day = (offset: number) => local.add(offset, 'day').format('YYYY-MM-DD');
  const itDate = (offset: number) => local.add(offset, 'day').format('DD/MM/YYYY');
  /** The next given weekday after today (1 = Monday … 7 = Sunday). */
  const nextWeekday = (isoDay: number) => {
    const today = local.day() === 0 ? 7 : local.day();
    return day(((isoDay - today + 6) % 7) + 1);
  };
  /** The next occurrence of a day of the year, after today. */
  const nextYearly = (month: number, dayOfMonth: number) => {
    const thisYear = local
      .month(month - 1)
      .date(dayOfMonth)
      .startOf('day');
    return (thisYear.isAfter(local) ? thisYear : thisYear.add(1, 'year')).format('YYYY-MM-DD');
  };

  const png = (name: string, bytes: Buffer): FileRef => ({
    name,
    contentType: 'image/png',
    base64: bytes.toString('base64'),
  });
  const pdf = async (name: string, spec: PdfSpec): Promise<FileRef> => ({
    name,
    contentType: 'application/pdf',
    base64: (await makePdf(spec, now)).toString('base64'),
  });
  const report = (
    n: string,
    what: string,
    asset: string,
    technician: string,
    daysAgo: number,
    hours: string,
  ) =>
    pdf(`rapporto-${n.replace('/', '-')}.pdf`, {
      title: `Rapporto di intervento n. ${n}`,
      subtitle: `Data intervento: ${itDate(-daysAgo)}  -  Tecnico: ${technician}`,
      lines: [
        `Cliente: Rossi Impianti Srl, Via Emilia 120, Modena`,
        `Apparato: ${asset}`,
        '',
        'Descrizione del lavoro svolto:',
        what,
        '',
        `Ore impiegate: ${hours}`,
        'Esito: intervento concluso, impianto funzionante.',
        '',
        'Firma del tecnico ______________________     Firma del cliente ______________________',
      ],
    });
  const screenshot = png('errore-gestionale.png', screenshotPng());

  // --- Rossi Impianti Srl ---------------------------------------------------------------------------
  const rossiTickets: TicketInput[] = [
    {
      id: 1001,
      title: 'Il gestionale non si avvia dopo l’aggiornamento',
      description:
        '<p>Buongiorno,</p><p>da questa mattina il <strong>gestionale</strong> non si avvia su nessuna postazione: compare un errore di connessione al database.</p><p>Allego la schermata.</p>',
      ticketNumber: `${year}/0118`,
      internalAnnualProgressive: 118,
      createdOn: ago(2, 8, 42),
      taskTypeId: 1,
      statusStepId: 2,
      nextPlannedActivityInfo: `Intervento in remoto previsto il ${itDate(1)} alle 09:30`,
      creatorContactId: 11,
      assignedGroupId: 1,
      assignedUserId: 1,
      wikiElementId: 100,
      comments: [
        {
          id: 5001,
          message: '<p>Ecco la schermata dell’errore che compare all’avvio.</p>',
          creationDate: ago(2, 8, 45),
          senderContactId: 11,
          attachments: [{ id: 7001, name: 'errore-gestionale.png', file: screenshot }],
        },
        {
          id: 5002,
          message:
            '<p>Buongiorno Marco, abbiamo preso in carico la richiesta. Il servizio database sul server <em>SRV-01</em> risulta fermo dopo il riavvio notturno.</p><p>Lo stiamo riavviando e vi aggiorniamo a breve.</p>',
          creationDate: ago(2, 9, 10),
          senderAgentId: 1,
          attachments: [],
        },
        {
          id: 5003,
          message:
            '<p>Il servizio è ripartito e il gestionale è di nuovo raggiungibile. Domani verifichiamo la causa del blocco con un controllo dei log.</p>',
          creationDate: ago(2, 10, 5),
          senderAgentId: 1,
          attachments: [
            {
              id: 7002,
              name: 'log-servizio-database.pdf',
              file: await pdf('log-servizio-database.pdf', {
                title: 'Estratto log servizio database',
                subtitle: `Server SRV-01  -  ${itDate(-2)}`,
                lines: [
                  '02:00:14  Riavvio pianificato del sistema operativo',
                  '02:03:51  Avvio servizio database: timeout in attesa del disco dati',
                  '02:03:52  Servizio database arrestato',
                  '09:12:40  Avvio manuale del servizio database: completato',
                ],
              }),
            },
          ],
        },
        {
          id: 5004,
          message: '<p>Confermo, adesso funziona su tutte le postazioni. Grazie!</p>',
          creationDate: ago(2, 10, 20),
          senderContactId: 11,
          attachments: [],
        },
      ],
    },
    {
      id: 1002,
      title: 'Condizionatore della sala riunioni gocciola',
      description:
        '<p>Il condizionatore della sala riunioni perde acqua dallo split interno. Abbiamo messo un secchio, ma servirebbe un intervento entro la settimana.</p>',
      ticketNumber: `${year}/0121`,
      internalAnnualProgressive: 121,
      createdOn: ago(5, 14, 12),
      taskTypeId: 2,
      statusStepId: 3,
      nextPlannedActivityInfo: 'In attesa della conferma della data di sopralluogo',
      creatorContactId: 12,
      assignedGroupId: 2,
      assignedUserId: 3,
      wikiElementId: 110,
      comments: [
        {
          id: 5005,
          message:
            '<p>Buongiorno Giulia, probabilmente lo scarico della condensa è ostruito. Possiamo passare <strong>giovedì mattina</strong>: ci confermate la disponibilità?</p>',
          creationDate: ago(4, 9, 30),
          senderAgentId: 3,
          attachments: [],
        },
      ],
    },
    {
      id: 1003,
      title: 'Nuova postazione per la collega in arrivo',
      description:
        '<p>Dal mese prossimo arriva una nuova collega in amministrazione. Ci servono:</p><ul><li>un PC configurato con il gestionale</li><li>un indirizzo e-mail</li><li>l’accesso alla cartella condivisa <em>Amministrazione</em></li></ul>',
      ticketNumber: `${year}/0124`,
      internalAnnualProgressive: 124,
      createdOn: ago(1, 11, 3),
      taskTypeId: 2,
      statusStepId: 1,
      nextPlannedActivityInfo: null,
      creatorContactId: 11,
      assignedGroupId: 1,
      assignedUserId: null,
      wikiElementId: null,
      comments: [],
    },
    {
      id: 1004,
      title: 'Backup notturno non completato',
      description:
        '<p>Il rapporto automatico del backup segnala due notti consecutive con esito <span style="color: #e03131">non completato</span>.</p>',
      ticketNumber: `${year}/0109`,
      internalAnnualProgressive: 109,
      createdOn: ago(16, 8, 15),
      taskTypeId: 1,
      statusStepId: 4,
      nextPlannedActivityInfo: null,
      creatorContactId: 11,
      assignedGroupId: 1,
      assignedUserId: 2,
      wikiElementId: 102,
      comments: [
        {
          id: 5006,
          message:
            '<p>Il disco di destinazione del NAS era pieno: abbiamo eliminato le copie più vecchie di 90 giorni e ridotto la retention.</p>',
          creationDate: ago(15, 10, 0),
          senderAgentId: 2,
          attachments: [],
        },
        {
          id: 5007,
          message: '<p>Il backup di stanotte è andato a buon fine. Chiudiamo la segnalazione.</p>',
          creationDate: ago(14, 9, 0),
          senderAgentId: 2,
          attachments: [],
        },
      ],
    },
    {
      id: 1005,
      title: 'Manutenzione programmata quadro elettrico',
      description:
        '<p>Verifica semestrale del quadro elettrico generale, come da contratto. Durante l’intervento l’alimentazione sarà sospesa per circa 30 minuti.</p>',
      ticketNumber: `${year}/0102`,
      internalAnnualProgressive: 102,
      createdOn: ago(24, 7, 50),
      taskTypeId: 3,
      statusStepId: 4,
      nextPlannedActivityInfo: null,
      creatorContactId: null,
      assignedGroupId: 2,
      assignedUserId: 3,
      wikiElementId: 111,
      comments: [
        {
          id: 5008,
          message:
            '<p>Intervento completato: serraggi verificati, prova dei differenziali superata. Trovate il rapporto nella sezione Rapporti.</p>',
          creationDate: ago(21, 12, 40),
          senderAgentId: 3,
          attachments: [],
        },
      ],
    },
    {
      id: 1006,
      title: 'Stampante del magazzino non stampa le etichette',
      description: '<p>La stampante Zebra del magazzino si blocca a metà etichetta.</p>',
      ticketNumber: `${year}/0125`,
      internalAnnualProgressive: 125,
      createdOn: ago(0, 8, 5),
      taskTypeId: 1,
      statusStepId: 1,
      nextPlannedActivityInfo: null,
      creatorContactId: 12,
      assignedGroupId: null,
      assignedUserId: null,
      wikiElementId: null,
      comments: [],
    },
    {
      id: 1007,
      title: 'Richiesta preventivo nuovo firewall',
      description:
        '<p>Vorremmo un preventivo per sostituire il firewall attuale, che va fuori supporto a fine anno.</p>',
      ticketNumber: `${year}/0097`,
      internalAnnualProgressive: 97,
      createdOn: ago(33, 15, 20),
      taskTypeId: 2,
      statusStepId: 4,
      nextPlannedActivityInfo: null,
      creatorContactId: 11,
      assignedGroupId: 1,
      assignedUserId: 1,
      wikiElementId: 101,
      comments: [
        {
          id: 5009,
          message:
            '<p>Vi abbiamo inviato il preventivo P-' +
            year +
            '-014 (trovate anche la revisione aggiornata nella sezione Preventivi).</p>',
          creationDate: ago(30, 11, 0),
          senderAgentId: 1,
          attachments: [],
        },
        {
          id: 5010,
          message: '<p>Perfetto, lo valutiamo in direzione e vi facciamo sapere.</p>',
          creationDate: ago(29, 16, 45),
          senderContactId: 11,
          attachments: [],
        },
      ],
    },
    {
      id: 1008,
      title: 'Accesso VPN da casa',
      description:
        '<p>Non riesco a collegarmi alla VPN da casa: il client resta su "connessione in corso".</p>',
      ticketNumber: `${year}/0120`,
      internalAnnualProgressive: 120,
      createdOn: ago(7, 18, 30),
      taskTypeId: 2,
      statusStepId: 2,
      nextPlannedActivityInfo: 'Sessione di assistenza remota da concordare',
      creatorContactId: 12,
      assignedGroupId: 1,
      assignedUserId: 2,
      wikiElementId: 101,
      comments: [
        {
          id: 5011,
          message:
            '<p>Ciao Giulia, ti abbiamo rigenerato il profilo VPN. Puoi riprovare e dirci se funziona?</p>',
          creationDate: ago(6, 9, 15),
          senderAgentId: 2,
          attachments: [],
        },
        {
          id: 5012,
          message: '<p>Ancora niente, stesso comportamento.</p>',
          creationDate: ago(6, 19, 2),
          senderContactId: 12,
          attachments: [],
        },
      ],
    },
    {
      id: 1009,
      title: 'Sostituzione lampade ufficio tecnico',
      description: '<p>Due plafoniere dell’ufficio tecnico sono spente.</p>',
      ticketNumber: '',
      internalAnnualProgressive: 0,
      createdOn: ago(45, 10, 0),
      taskTypeId: 2,
      statusStepId: 4,
      nextPlannedActivityInfo: null,
      creatorContactId: 11,
      assignedGroupId: 2,
      assignedUserId: 3,
      wikiElementId: null,
      comments: [
        {
          id: 5013,
          message: '<p>Lampade sostituite con pannelli LED. Buon lavoro!</p>',
          creationDate: ago(43, 14, 0),
          senderAgentId: 3,
          attachments: [],
        },
      ],
    },
  ];

  const rossi: CompanyInput = {
    id: 1,
    companyName: 'Rossi Impianti Srl',
    contacts: [
      {
        contactId: 11,
        referentName: 'Marco Rossi',
        email: 'marco.rossi@rossi-impianti.example',
        phone: '+393331234567',
        permissions: ALL_PERMISSIONS,
      },
      {
        contactId: 12,
        referentName: 'Giulia Bianchi',
        email: 'giulia.bianchi@rossi-impianti.example',
        phone: null,
        permissions: { manageTickets: true, viewContactActivityReports: true },
      },
    ],
    wikiFolders: [
      {
        id: 10,
        name: 'Server e rete',
        elements: [
          {
            id: 100,
            name: 'SRV-01 Server gestionale',
            properties: [
              { id: 1, typologyName: 'Indirizzo IP', dataType: 'text', value: '192.168.10.10' },
              { id: 2, typologyName: 'Sistema operativo', dataType: 'text', value: 'Windows Server 2022' },
              { id: 3, typologyName: 'Memoria RAM (GB)', dataType: 'number', value: 64 },
              { id: 4, typologyName: 'Data installazione', dataType: 'date', value: day(-640) },
              { id: 5, typologyName: 'In garanzia', dataType: 'bool', value: true },
              {
                id: 6,
                typologyName: 'Pannello di gestione',
                dataType: 'url',
                value: 'https://srv01.rossi-impianti.example',
              },
              {
                id: 7,
                typologyName: 'Scheda tecnica',
                dataType: 'file',
                file: await pdf('scheda-srv-01.pdf', {
                  title: 'Scheda tecnica SRV-01',
                  subtitle: 'Server gestionale - sala CED piano terra',
                  lines: [
                    'Modello: rack 1U, 2 x CPU 12 core',
                    'Memoria: 64 GB ECC',
                    'Dischi: 4 x 1,92 TB SSD in RAID 10',
                    'Alimentazione ridondata, collegato a UPS-01',
                  ],
                }),
              },
            ],
          },
          {
            id: 101,
            name: 'FW-01 Firewall perimetrale',
            properties: [
              { id: 8, typologyName: 'Indirizzo IP', dataType: 'text', value: '192.168.10.1' },
              { id: 9, typologyName: 'Fine supporto', dataType: 'date', value: day(40) },
              { id: 10, typologyName: 'Aggiornato', dataType: 'bool', value: false },
            ],
          },
          {
            id: 102,
            name: 'NAS-01 Backup',
            properties: [
              { id: 11, typologyName: 'Capacità (TB)', dataType: 'number', value: 16 },
              { id: 12, typologyName: 'Retention (giorni)', dataType: 'number', value: 60 },
            ],
          },
        ],
      },
      {
        id: 11,
        name: 'Impianti',
        elements: [
          {
            id: 110,
            name: 'Climatizzatore sala riunioni',
            properties: [
              {
                id: 13,
                typologyName: 'Marca e modello',
                dataType: 'text',
                value: 'Split 12000 BTU, gas R32',
              },
              { id: 14, typologyName: 'Ultima pulizia filtri', dataType: 'date', value: day(-70) },
            ],
          },
          {
            id: 111,
            name: 'Quadro elettrico generale',
            properties: [
              { id: 15, typologyName: 'Potenza impegnata (kW)', dataType: 'number', value: 30 },
              { id: 16, typologyName: 'Ultima verifica', dataType: 'date', value: day(-21) },
            ],
          },
        ],
      },
    ],
    tickets: rossiTickets,
    activityReports: [
      {
        id: 301,
        name: `Rapporto n. ${year}/118 - Ripristino servizio database`,
        dateTime: ago(2, 10, 5),
        taskId: 1001,
        document: await report(
          `${year}/118`,
          'Riavvio del servizio database e verifica del disco dati dopo il riavvio pianificato.',
          'SRV-01 Server gestionale',
          'Marco Ferri',
          2,
          '1:00',
        ),
      },
      {
        id: 302,
        name: `Rapporto n. ${year}/109 - Backup NAS`,
        dateTime: ago(15, 10, 0),
        taskId: 1004,
        document: await report(
          `${year}/109`,
          'Pulizia delle copie obsolete sul NAS e riduzione della retention a 60 giorni.',
          'NAS-01 Backup',
          'Sara Conti',
          15,
          '1:30',
        ),
      },
      {
        id: 303,
        name: `Rapporto n. ${year}/102 - Verifica quadro elettrico`,
        dateTime: ago(21, 12, 40),
        taskId: 1005,
        document: await report(
          `${year}/102`,
          'Verifica semestrale: serraggi, prova dei differenziali, misura della terra.',
          'Quadro elettrico generale',
          'Davide Galli',
          21,
          '2:30',
        ),
      },
      {
        id: 304,
        name: `Rapporto n. ${year}/088 - Lampade ufficio tecnico`,
        dateTime: ago(43, 14, 0),
        taskId: 1009,
        document: await report(
          `${year}/088`,
          'Sostituzione di due plafoniere con pannelli LED 60x60.',
          'Illuminazione ufficio tecnico',
          'Davide Galli',
          43,
          '1:00',
        ),
      },
    ],
    activityContracts: [
      {
        id: 401,
        name: `Monte ore assistenza IT ${year}`,
        start: day(-120),
        end: day(245),
        activityContractType: 0,
        hoursAmount: 40,
        activities: [
          {
            id: 1,
            activityTypeName: 'Assistenza remota',
            start: ago(2, 9, 10),
            durationMinutes: 60,
            assignedUser: 'Marco Ferri',
            addressType: 1,
          },
          {
            id: 2,
            activityTypeName: 'Intervento on-site',
            start: ago(15, 10, 0),
            durationMinutes: 90,
            assignedUser: 'Sara Conti',
            addressType: 2,
            activityLocation_Address: 'Via Emilia 120, 41121 Modena',
            report: await report(
              `${year}/109`,
              'Pulizia delle copie obsolete sul NAS e riduzione della retention a 60 giorni.',
              'NAS-01 Backup',
              'Sara Conti',
              15,
              '1:30',
            ),
          },
          {
            id: 3,
            activityTypeName: 'Configurazione postazione',
            start: ago(60, 14, 0),
            durationMinutes: 150,
            assignedUser: 'Marco Ferri',
            addressType: 2,
            activityLocation_Address: 'Via Emilia 120, 41121 Modena',
          },
        ],
      },
      {
        id: 402,
        name: 'Pacchetto interventi impianti',
        start: day(-200),
        end: day(165),
        activityContractType: 1,
        unitAmount: 10,
        activities: [
          {
            id: 4,
            activityTypeName: 'Verifica quadro elettrico',
            start: ago(21, 10, 10),
            durationMinutes: 150,
            units: 2,
            assignedUser: 'Davide Galli',
            addressType: 2,
            activityLocation_Address: 'Via Emilia 120, 41121 Modena',
          },
          {
            id: 5,
            activityTypeName: 'Sostituzione lampade',
            start: ago(43, 13, 0),
            durationMinutes: 60,
            units: 1,
            assignedUser: 'Davide Galli',
            addressType: 2,
            activityLocation_Address: 'Via Emilia 120, 41121 Modena',
          },
        ],
      },
      {
        id: 403,
        name: `Monte ore assistenza IT ${year - 1}`,
        start: day(-485),
        end: day(-121),
        activityContractType: 0,
        hoursAmount: 20,
        activities: [
          {
            id: 6,
            activityTypeName: 'Assistenza remota',
            start: ago(200, 11, 0),
            durationMinutes: 45,
            assignedUser: 'Sara Conti',
            addressType: 1,
          },
        ],
      },
    ],
    serviceContracts: [
      {
        id: 501,
        name: 'Manutenzione server e backup',
        status: 1,
        activeFrom: day(-300),
        activeTo: day(65),
        tagIds: [1, 2, 5],
        wikiElementIds: [100, 102],
        documents: [
          {
            id: 1,
            documentName: 'Contratto di manutenzione server.pdf',
            file: await pdf('contratto-manutenzione-server.pdf', {
              title: 'Contratto di manutenzione server e backup',
              subtitle: `Validità: dal ${itDate(-300)} al ${itDate(65)}`,
              lines: [
                'Oggetto: manutenzione preventiva e correttiva di SRV-01 e NAS-01.',
                'Tempi di intervento: entro 4 ore lavorative dalla segnalazione.',
                'Compresi: 12 interventi on-site e 20 ore di assistenza remota.',
                'Canone mensile: 180,00 EUR + IVA.',
              ],
            }),
          },
        ],
        packages: [
          {
            id: 1,
            name: 'Interventi on-site',
            unitsText: '12 interventi',
            residualText: '9 interventi',
            activities: [
              {
                id: 101,
                activityTypeName: 'Intervento on-site',
                start: ago(15, 10, 0),
                durationMinutes: 90,
                units: 1,
                assignedUser: 'Sara Conti',
                addressType: 2,
                activityLocation_Address: 'Via Emilia 120, 41121 Modena',
              },
            ],
          },
          {
            id: 2,
            name: 'Assistenza remota',
            unitsText: '20 ore',
            residualText: '17 ore 30 min',
            activities: [
              {
                id: 102,
                activityTypeName: 'Assistenza remota',
                start: ago(2, 9, 10),
                durationMinutes: 60,
                assignedUser: 'Marco Ferri',
                addressType: 1,
              },
            ],
          },
        ],
      },
      {
        id: 502,
        name: 'Manutenzione climatizzazione',
        status: 1,
        activeFrom: day(-345),
        activeTo: day(18),
        tagIds: [3],
        wikiElementIds: [110],
        documents: [],
        packages: [
          {
            id: 3,
            name: 'Controlli stagionali',
            unitsText: '2 controlli',
            residualText: '1 controllo',
            activities: [],
          },
        ],
      },
      {
        id: 503,
        name: `Verifica impianto elettrico ${year - 1}`,
        status: 4,
        activeFrom: day(-400),
        activeTo: day(-40),
        tagIds: [4],
        wikiElementIds: [111],
        documents: [
          {
            id: 2,
            documentName: 'Verbale di verifica.pdf',
            file: await pdf('verbale-verifica-impianto.pdf', {
              title: 'Verbale di verifica impianto elettrico',
              subtitle: `Data: ${itDate(-60)}`,
              lines: ['Esito della verifica: positivo.', 'Prossima verifica consigliata entro 12 mesi.'],
            }),
          },
        ],
        packages: [],
      },
    ],
    invoices: [
      {
        id: 601,
        documentNumber: `FT ${year}/0412`,
        total: 219.6,
        invoiceDate: day(-5),
        document: await pdf('fattura-0412.pdf', {
          title: `Fattura n. ${year}/0412`,
          subtitle: `Data: ${itDate(-5)}`,
          lines: [
            'Canone manutenzione server e backup',
            'Imponibile 180,00 EUR - IVA 22% 39,60 EUR',
            'Totale 219,60 EUR',
          ],
        }),
      },
      {
        id: 602,
        documentNumber: `FT ${year}/0366`,
        total: 1464,
        invoiceDate: day(-36),
        document: await pdf('fattura-0366.pdf', {
          title: `Fattura n. ${year}/0366`,
          subtitle: `Data: ${itDate(-36)}`,
          lines: [
            'Monte ore assistenza IT',
            'Imponibile 1.200,00 EUR - IVA 22% 264,00 EUR',
            'Totale 1.464,00 EUR',
          ],
        }),
      },
      {
        id: 603,
        documentNumber: `FT ${year}/0301`,
        total: 305,
        invoiceDate: day(-66),
        document: await pdf('fattura-0301.pdf', {
          title: `Fattura n. ${year}/0301`,
          subtitle: `Data: ${itDate(-66)}`,
          lines: [
            'Verifica semestrale quadro elettrico',
            'Imponibile 250,00 EUR - IVA 22% 55,00 EUR',
            'Totale 305,00 EUR',
          ],
        }),
      },
    ],
    estimates: [
      {
        id: 701,
        estimateName: 'Sostituzione firewall perimetrale',
        estimateNumber: `P-${year}-014`,
        revisionNumber: 0,
        total: 2890,
        estimateCreationDate: day(-30),
        document: await pdf('preventivo-014.pdf', {
          title: `Preventivo P-${year}-014`,
          subtitle: 'Sostituzione firewall perimetrale',
          lines: [
            'Firewall di nuova generazione con licenza 3 anni',
            'Installazione e migrazione regole',
            'Totale 2.890,00 EUR + IVA',
          ],
        }),
      },
      {
        id: 702,
        estimateName: 'Sostituzione firewall perimetrale',
        estimateNumber: `P-${year}-014`,
        revisionNumber: 1,
        total: 2640.5,
        estimateCreationDate: day(-12),
        document: await pdf('preventivo-014-rev1.pdf', {
          title: `Preventivo P-${year}-014 rev. 1`,
          subtitle: 'Sostituzione firewall perimetrale - revisione',
          lines: [
            'Firewall di nuova generazione con licenza 3 anni',
            'Sconto fedeltà 10% sulla licenza',
            'Totale 2.640,50 EUR + IVA',
          ],
        }),
      },
      {
        id: 703,
        estimateName: 'Climatizzazione uffici piano primo',
        estimateNumber: `P-${year}-021`,
        revisionNumber: 0,
        total: 7420,
        estimateCreationDate: day(-3),
        document: await pdf('preventivo-021.pdf', {
          title: `Preventivo P-${year}-021`,
          subtitle: 'Climatizzazione uffici piano primo',
          lines: [
            'Fornitura e posa di 4 split inverter',
            'Linee frigorifere e scarichi condensa',
            'Totale 7.420,00 EUR + IVA',
          ],
        }),
      },
    ],
    recurringAdvances: [
      {
        id: 801,
        code: 'CAN-IT',
        description: 'Canone manutenzione server e backup',
        quantity: 1,
        taxedTotal: 219.6,
        advanceDate: day(25),
        trigger: { recurrenceType: 20, frequencyMonth: 1, recurrenceDay: local.add(25, 'day').date() },
      },
      {
        id: 802,
        code: 'PUL-FILTRI',
        description: 'Pulizia filtri climatizzazione',
        quantity: 3,
        taxedTotal: 146.4,
        advanceDate: nextWeekday(3),
        trigger: { recurrenceType: 10, frequencyWeek: 2, recurrenceDayOfWeek: 3 },
      },
      {
        id: 803,
        code: 'DOM-PEC',
        description: 'Rinnovo dominio e caselle PEC',
        quantity: 1,
        taxedTotal: 85.4,
        advanceDate: nextYearly(3, 15),
        trigger: { recurrenceType: 30, recurrenceDay: 15, recurrenceMonth: 3 },
      },
    ],
    documents: [
      {
        id: 901,
        contactId: 11,
        documentName: 'Visura camerale.pdf',
        createDate: ago(90, 10, 0),
        file: await pdf('visura-camerale.pdf', {
          title: 'Visura camerale',
          subtitle: 'Rossi Impianti Srl',
          lines: ['Sede legale: Via Emilia 120, 41121 Modena', 'Codice fiscale e P.IVA: IT09876543210'],
        }),
      },
      {
        id: 902,
        contactId: 11,
        documentName: 'Planimetria uffici.png',
        createDate: ago(40, 16, 0),
        file: png('planimetria-uffici.png', floorPlanPng()),
      },
      {
        id: 903,
        contactId: 12,
        documentName: 'Delega ritiro materiale.pdf',
        createDate: ago(12, 9, 0),
        file: await pdf('delega-ritiro.pdf', {
          title: 'Delega al ritiro del materiale',
          lines: [
            'La sottoscritta Giulia Bianchi delega il corriere al ritiro',
            'del materiale in riparazione.',
          ],
        }),
      },
    ],
  };

  // --- Bottega Verdi Snc ----------------------------------------------------------------------------
  const verdi: CompanyInput = {
    id: 2,
    companyName: 'Bottega Verdi Snc',
    contacts: [
      {
        contactId: 21,
        referentName: 'Luca Verdi',
        email: 'luca@bottegaverdi.example',
        phone: '+393471112233',
        permissions: {
          manageTickets: true,
          viewContactContracts: true,
          viewRecurringAdvances: true,
          viewContactActivityReports: true,
          viewContactWiki: true,
          viewEstimates: true,
          viewContactInvoices: true,
          viewContactDocuments: true,
        },
      },
      {
        contactId: 22,
        referentName: 'Marco Rossi',
        email: 'marco.rossi@rossi-impianti.example',
        phone: '+393331234567',
        permissions: {
          manageTickets: true,
          viewContactContracts: true,
          viewContactInvoices: true,
          viewContactDocuments: true,
          uploadContactDocuments: true,
        },
      },
    ],
    wikiFolders: [
      {
        id: 20,
        name: 'Negozio',
        elements: [
          {
            id: 200,
            name: 'Cassa e POS',
            properties: [
              { id: 17, typologyName: 'Matricola registratore', dataType: 'text', value: 'RT-99IT-004512' },
              { id: 18, typologyName: 'Assistenza fiscale fino al', dataType: 'date', value: day(200) },
            ],
          },
          {
            id: 201,
            name: 'Climatizzazione negozio',
            properties: [{ id: 19, typologyName: 'Potenza (BTU)', dataType: 'number', value: 18000 }],
          },
        ],
      },
    ],
    tickets: [
      {
        id: 2001,
        title: 'Il POS non si collega alla cassa',
        description: '<p>Da ieri il POS non comunica più con la cassa: i pagamenti vanno battuti a mano.</p>',
        ticketNumber: `${year}/0122`,
        internalAnnualProgressive: 122,
        createdOn: ago(3, 17, 40),
        taskTypeId: 1,
        statusStepId: 2,
        nextPlannedActivityInfo: `Tecnico in negozio il ${itDate(1)} alle 15:00`,
        creatorContactId: 21,
        assignedGroupId: 1,
        assignedUserId: 2,
        wikiElementId: 200,
        comments: [
          {
            id: 5101,
            message:
              '<p>Buongiorno Luca, il collegamento passa dal Wi-Fi del negozio: potete riavviare il router?</p>',
            creationDate: ago(2, 9, 0),
            senderAgentId: 2,
            attachments: [],
          },
          {
            id: 5102,
            message: '<p>Fatto, ma non è cambiato nulla.</p>',
            creationDate: ago(2, 10, 30),
            senderContactId: 21,
            attachments: [],
          },
        ],
      },
      {
        id: 2002,
        title: 'Controllo climatizzatore prima dell’estate',
        description: '<p>Vorremmo programmare la pulizia del climatizzatore del negozio.</p>',
        ticketNumber: `${year}/0090`,
        internalAnnualProgressive: 90,
        createdOn: ago(52, 10, 0),
        taskTypeId: 3,
        statusStepId: 4,
        nextPlannedActivityInfo: null,
        creatorContactId: 21,
        assignedGroupId: 2,
        assignedUserId: 3,
        wikiElementId: 201,
        comments: [
          {
            id: 5103,
            message: '<p>Pulizia filtri e sanificazione eseguite.</p>',
            creationDate: ago(48, 12, 0),
            senderAgentId: 3,
            attachments: [],
          },
        ],
      },
      {
        id: 2003,
        title: 'Aggiornamento listino sul sito',
        description: '<p>Ci aiutate a caricare il nuovo listino sul sito del negozio?</p>',
        ticketNumber: `${year}/0123`,
        internalAnnualProgressive: 123,
        createdOn: ago(1, 12, 15),
        taskTypeId: 2,
        statusStepId: 1,
        nextPlannedActivityInfo: null,
        creatorContactId: 22,
        assignedGroupId: null,
        assignedUserId: null,
        wikiElementId: null,
        comments: [],
      },
    ],
    activityReports: [
      {
        id: 311,
        name: `Rapporto n. ${year}/090 - Climatizzatore negozio`,
        dateTime: ago(48, 12, 0),
        taskId: 2002,
        document: await pdf('rapporto-090.pdf', {
          title: `Rapporto di intervento n. ${year}/090`,
          subtitle: `Data intervento: ${itDate(-48)}  -  Tecnico: Davide Galli`,
          lines: [
            'Cliente: Bottega Verdi Snc',
            'Pulizia filtri, sanificazione e controllo della carica del gas.',
          ],
        }),
      },
    ],
    activityContracts: [
      {
        id: 411,
        name: 'Assistenza cassa e POS',
        start: day(-90),
        end: day(275),
        activityContractType: 1,
        unitAmount: 6,
        activities: [
          {
            id: 11,
            activityTypeName: 'Intervento in negozio',
            start: ago(48, 11, 0),
            durationMinutes: 60,
            units: 1,
            assignedUser: 'Davide Galli',
            addressType: 2,
            activityLocation_Address: 'Piazza Grande 7, 41121 Modena',
          },
        ],
      },
    ],
    serviceContracts: [
      {
        id: 511,
        name: 'Assistenza fiscale registratore di cassa',
        status: 1,
        activeFrom: day(-160),
        activeTo: day(200),
        tagIds: [5],
        wikiElementIds: [200],
        documents: [],
        packages: [],
      },
    ],
    invoices: [
      {
        id: 611,
        documentNumber: `FT ${year}/0398`,
        total: 97.6,
        invoiceDate: day(-14),
        document: await pdf('fattura-0398.pdf', {
          title: `Fattura n. ${year}/0398`,
          subtitle: `Data: ${itDate(-14)}`,
          lines: ['Canone assistenza cassa e POS', 'Totale 97,60 EUR'],
        }),
      },
    ],
    estimates: [
      {
        id: 711,
        estimateName: 'Nuovo impianto di allarme',
        estimateNumber: `P-${year}-019`,
        revisionNumber: 2,
        total: 1890.75,
        estimateCreationDate: day(-8),
        document: await pdf('preventivo-019-rev2.pdf', {
          title: `Preventivo P-${year}-019 rev. 2`,
          subtitle: 'Nuovo impianto di allarme',
          lines: ['Centrale, 4 sensori e sirena esterna', 'Totale 1.890,75 EUR + IVA'],
        }),
      },
    ],
    recurringAdvances: [
      {
        id: 811,
        code: 'CAN-POS',
        description: 'Canone assistenza cassa e POS',
        quantity: 1,
        taxedTotal: 97.6,
        advanceDate: day(16),
        trigger: { recurrenceType: 20, frequencyMonth: 3, recurrenceDay: 1 },
      },
    ],
    documents: [
      {
        id: 911,
        contactId: 21,
        documentName: 'Documento di identità.pdf',
        createDate: ago(100, 11, 0),
        file: await pdf('documento-identita.pdf', {
          title: 'Documento di identità',
          subtitle: 'Luca Verdi',
          lines: ['Copia conservata per la verifica del titolare.'],
        }),
      },
    ],
  };

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
        companies: [rossi, verdi],
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
                `Durata: dal ${local.add(1, 'year').startOf('year').format('DD/MM/YYYY')} per 12 mesi.`,
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
      {
        userName: 'demo',
        email: 'demo@sportello.example',
        password: DEMO_PASSWORD,
        contacts: [
          { webPortalKey: DEMO_PORTAL_KEY, contactId: 11 },
          { webPortalKey: DEMO_PORTAL_KEY, contactId: 22 },
        ],
      },
      {
        userName: 'giulia.bianchi',
        email: 'giulia.bianchi@rossi-impianti.example',
        password: DEMO_PASSWORD,
        contacts: [{ webPortalKey: DEMO_PORTAL_KEY, contactId: 12 }],
      },
      {
        userName: 'luca.verdi',
        email: 'luca@bottegaverdi.example',
        password: DEMO_PASSWORD,
        contacts: [{ webPortalKey: DEMO_PORTAL_KEY, contactId: 21 }],
      },
    ],
  };
}
