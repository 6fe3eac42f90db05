import { describe, expect, it } from 'vitest';
import { filterTicketsByTitle } from './ticket-search-filter';

describe('filterTicketsByTitle (header ticket search)', () => {
  const tickets = [
    { id: 1, title: 'Backup notturno non completato' },
    { id: 2, title: 'Il gestionale non si avvia dopo l’aggiornamento' },
    { id: 3, title: 'Stampante: qualità scarsa' },
  ];

  it('lists every ticket while nothing is typed', () => {
    expect(filterTicketsByTitle(tickets, '  ').map((t) => t.id)).toEqual([1, 2, 3]);
  });

  it('matches every typed word, ignoring case and accents', () => {
    expect(filterTicketsByTitle(tickets, 'BACKUP').map((t) => t.id)).toEqual([1]);
    expect(filterTicketsByTitle(tickets, 'qualita stampante').map((t) => t.id)).toEqual([3]);
    expect(filterTicketsByTitle(tickets, 'non').map((t) => t.id)).toEqual([1, 2]);
    expect(filterTicketsByTitle(tickets, 'backup gestionale')).toEqual([]);
  });
});
