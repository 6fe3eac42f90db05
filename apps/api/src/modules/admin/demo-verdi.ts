/** The demo's second client company, Bottega Verdi Snc. */
import { ticketNumberOf } from '../../platform/ticket-numbers';
import { permissions, fromAgent, fromContact, type CompanyInput, type DemoKit } from './demo-kit';

/** Bottega Verdi Snc: a shop; Marco Rossi is its contact too (the company switcher). */
export async function bottegaVerdi(k: DemoKit): Promise<CompanyInput> {
  const { year, ago, day, itDate, pdf, invoicePdf } = k;
  return {
    id: 2,
    companyName: 'Bottega Verdi Snc',
    contacts: [
      {
        contactId: 21,
        referentName: 'Luca Verdi',
        email: 'luca@bottegaverdi.example',
        phone: '+393471112233',
        permissions: permissions(
          'manageTickets',
          'viewContactContracts',
          'viewRecurringAdvances',
          'viewContactActivityReports',
          'viewContactWiki',
          'viewEstimates',
          'viewContactInvoices',
          'viewContactDocuments',
        ),
      },
      {
        contactId: 22,
        referentName: 'Marco Rossi',
        email: 'marco.rossi@rossi-impianti.example',
        phone: '+393331234567',
        permissions: permissions(
          'manageTickets',
          'viewContactContracts',
          'viewContactInvoices',
          'viewContactDocuments',
          'uploadContactDocuments',
        ),
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
        ticketNumber: ticketNumberOf(year, 122),
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
          fromAgent(
            5101,
            2,
            ago(2, 9, 0),
            '<p>Buongiorno Luca, il collegamento passa dal Wi-Fi del negozio: potete riavviare il router?</p>',
          ),
          fromContact(5102, 21, ago(2, 10, 30), '<p>Fatto, ma non è cambiato nulla.</p>'),
        ],
      },
      {
        id: 2002,
        title: 'Controllo climatizzatore prima dell’estate',
        description: '<p>Vorremmo programmare la pulizia del climatizzatore del negozio.</p>',
        ticketNumber: ticketNumberOf(year, 90),
        internalAnnualProgressive: 90,
        createdOn: ago(52, 10, 0),
        taskTypeId: 3,
        statusStepId: 4,
        nextPlannedActivityInfo: null,
        creatorContactId: 21,
        assignedGroupId: 2,
        assignedUserId: 3,
        wikiElementId: 201,
        comments: [fromAgent(5103, 3, ago(48, 12, 0), '<p>Pulizia filtri e sanificazione eseguite.</p>')],
      },
      {
        id: 2003,
        title: 'Aggiornamento listino sul sito',
        description: '<p>Ci aiutate a caricare il nuovo listino sul sito del negozio?</p>',
        ticketNumber: ticketNumberOf(year, 123),
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
        document: await invoicePdf('0398', 14, ['Canone assistenza cassa e POS', 'Totale 97,60 EUR']),
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
}
