/** The demo's first client company, Rossi Impianti Srl (IT and facility services). */
import { ticketNumberOf } from '../../platform/ticket-numbers';
import { floorPlanPng, screenshotPng } from './demo-assets';
import {
  ALL_PERMISSIONS,
  permissions,
  fromAgent,
  fromContact,
  type CompanyInput,
  type DemoKit,
  type TicketInput,
} from './demo-kit';

/** Rossi's tickets, each with its conversation. */
async function rossiTickets(k: DemoKit): Promise<TicketInput[]> {
  const { year, ago, itDate, png, pdf } = k;
  const screenshot = png('errore-gestionale.png', screenshotPng());
  return [
    {
      id: 1001,
      title: 'Il gestionale non si avvia dopo l’aggiornamento',
      description:
        '<p>Buongiorno,</p><p>da questa mattina il <strong>gestionale</strong> non si avvia su nessuna postazione: compare un errore di connessione al database.</p><p>Allego la schermata.</p>',
      ticketNumber: ticketNumberOf(year, 118),
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
        fromAgent(
          5002,
          1,
          ago(2, 9, 10),
          '<p>Buongiorno Marco, abbiamo preso in carico la richiesta. Il servizio database sul server <em>SRV-01</em> risulta fermo dopo il riavvio notturno.</p><p>Lo stiamo riavviando e vi aggiorniamo a breve.</p>',
        ),
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
        fromContact(
          5004,
          11,
          ago(2, 10, 20),
          '<p>Confermo, adesso funziona su tutte le postazioni. Grazie!</p>',
        ),
      ],
    },
    {
      id: 1002,
      title: 'Condizionatore della sala riunioni gocciola',
      description:
        '<p>Il condizionatore della sala riunioni perde acqua dallo split interno. Abbiamo messo un secchio, ma servirebbe un intervento entro la settimana.</p>',
      ticketNumber: ticketNumberOf(year, 121),
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
        fromAgent(
          5005,
          3,
          ago(4, 9, 30),
          '<p>Buongiorno Giulia, probabilmente lo scarico della condensa è ostruito. Possiamo passare <strong>giovedì mattina</strong>: ci confermate la disponibilità?</p>',
        ),
      ],
    },
    {
      id: 1003,
      title: 'Nuova postazione per la collega in arrivo',
      description:
        '<p>Dal mese prossimo arriva una nuova collega in amministrazione. Ci servono:</p><ul><li>un PC configurato con il gestionale</li><li>un indirizzo e-mail</li><li>l’accesso alla cartella condivisa <em>Amministrazione</em></li></ul>',
      ticketNumber: ticketNumberOf(year, 124),
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
      ticketNumber: ticketNumberOf(year, 109),
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
        fromAgent(
          5006,
          2,
          ago(15, 10, 0),
          '<p>Il disco di destinazione del NAS era pieno: abbiamo eliminato le copie più vecchie di 90 giorni e ridotto la retention.</p>',
        ),
        fromAgent(
          5007,
          2,
          ago(14, 9, 0),
          '<p>Il backup di stanotte è andato a buon fine. Chiudiamo la segnalazione.</p>',
        ),
      ],
    },
    {
      id: 1005,
      title: 'Manutenzione programmata quadro elettrico',
      description:
        '<p>Verifica semestrale del quadro elettrico generale, come da contratto. Durante l’intervento l’alimentazione sarà sospesa per circa 30 minuti.</p>',
      ticketNumber: ticketNumberOf(year, 102),
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
        fromAgent(
          5008,
          3,
          ago(21, 12, 40),
          '<p>Intervento completato: serraggi verificati, prova dei differenziali superata. Trovate il rapporto nella sezione Rapporti.</p>',
        ),
      ],
    },
    {
      id: 1006,
      title: 'Stampante del magazzino non stampa le etichette',
      description: '<p>La stampante Zebra del magazzino si blocca a metà etichetta.</p>',
      ticketNumber: ticketNumberOf(year, 125),
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
      ticketNumber: ticketNumberOf(year, 97),
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
        fromContact(
          5010,
          11,
          ago(29, 16, 45),
          '<p>Perfetto, lo valutiamo in direzione e vi facciamo sapere.</p>',
        ),
      ],
    },
    {
      id: 1008,
      title: 'Accesso VPN da casa',
      description:
        '<p>Non riesco a collegarmi alla VPN da casa: il client resta su "connessione in corso".</p>',
      ticketNumber: ticketNumberOf(year, 120),
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
        fromAgent(
          5011,
          2,
          ago(6, 9, 15),
          '<p>Ciao Giulia, ti abbiamo rigenerato il profilo VPN. Puoi riprovare e dirci se funziona?</p>',
        ),
        fromContact(5012, 12, ago(6, 19, 2), '<p>Ancora niente, stesso comportamento.</p>'),
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
        fromAgent(5013, 3, ago(43, 14, 0), '<p>Lampade sostituite con pannelli LED. Buon lavoro!</p>'),
      ],
    },
  ];
}

/** Rossi Impianti Srl: the demo's main client, with every kind of data. */
export async function rossiImpianti(k: DemoKit): Promise<CompanyInput> {
  return {
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
        permissions: permissions('manageTickets', 'viewContactActivityReports'),
      },
    ],
    wikiFolders: await rossiWikiFolders(k),
    tickets: await rossiTickets(k),
    activityReports: await rossiActivityReports(k),
    activityContracts: await rossiActivityContracts(k),
    serviceContracts: await rossiServiceContracts(k),
    invoices: await rossiInvoices(k),
    estimates: await rossiEstimates(k),
    recurringAdvances: rossiRecurringAdvances(k),
    documents: await rossiDocuments(k),
  };
}

/** The asset wiki: servers and network, and the building's plant. */
async function rossiWikiFolders(k: DemoKit): Promise<NonNullable<CompanyInput['wikiFolders']>> {
  const { day, pdf } = k;
  return [
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
  ];
}

/** Reports of the interventions, some tied to tickets. */
async function rossiActivityReports(k: DemoKit): Promise<NonNullable<CompanyInput['activityReports']>> {
  const { year, ago, report } = k;
  return [
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
  ];
}

/** Hour and unit contracts: the current ones and last year's. */
async function rossiActivityContracts(k: DemoKit): Promise<NonNullable<CompanyInput['activityContracts']>> {
  const { year, ago, day, report } = k;
  return [
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
  ];
}

/** Service contracts: active, expiring and expired, with documents and packages. */
async function rossiServiceContracts(k: DemoKit): Promise<NonNullable<CompanyInput['serviceContracts']>> {
  const { year, ago, day, itDate, pdf } = k;
  return [
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
  ];
}

/** Recent invoices. */
async function rossiInvoices(k: DemoKit): Promise<NonNullable<CompanyInput['invoices']>> {
  const { year, day, invoicePdf } = k;
  return [
    {
      id: 601,
      documentNumber: `FT ${year}/0412`,
      total: 219.6,
      invoiceDate: day(-5),
      dueDate: day(25),
      document: await invoicePdf('0412', 5, [
        'Canone manutenzione server e backup',
        'Imponibile 180,00 EUR - IVA 22% 39,60 EUR',
        'Totale 219,60 EUR',
      ]),
    },
    {
      id: 602,
      documentNumber: `FT ${year}/0366`,
      total: 1464,
      invoiceDate: day(-36),
      dueDate: day(-6),
      document: await invoicePdf('0366', 36, [
        'Monte ore assistenza IT',
        'Imponibile 1.200,00 EUR - IVA 22% 264,00 EUR',
        'Totale 1.464,00 EUR',
      ]),
    },
    {
      id: 603,
      documentNumber: `FT ${year}/0301`,
      total: 305,
      invoiceDate: day(-66),
      dueDate: day(-36),
      paidDate: day(-40),
      document: await invoicePdf('0301', 66, [
        'Verifica semestrale quadro elettrico',
        'Imponibile 250,00 EUR - IVA 22% 55,00 EUR',
        'Totale 305,00 EUR',
      ]),
    },
  ];
}

/** Estimates, one of them revised. */
async function rossiEstimates(k: DemoKit): Promise<NonNullable<CompanyInput['estimates']>> {
  const { year, day, pdf } = k;
  return [
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
  ];
}

/** Recurring charges: monthly, every other week, yearly. */
function rossiRecurringAdvances(k: DemoKit): NonNullable<CompanyInput['recurringAdvances']> {
  const { day, nextWeekday, nextYearly } = k;
  return [
    {
      id: 801,
      code: 'CAN-IT',
      description: 'Canone manutenzione server e backup',
      quantity: 1,
      taxedTotal: 219.6,
      advanceDate: day(25),
      trigger: { recurrenceType: 20, frequencyMonth: 1, recurrenceDay: Number(day(25).slice(8)) },
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
  ];
}

/** Documents the contacts uploaded. */
async function rossiDocuments(k: DemoKit): Promise<NonNullable<CompanyInput['documents']>> {
  const { ago, png, pdf } = k;
  return [
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
  ];
}
