import { useState } from 'react';
import { EMPTY_RANGE } from '../../ui/date-range';
import type { TicketFilters } from './components/ticket-filters-bar';

/** Filters start at 'open or pending', no date and no wiki element (SPEC A2). */
export const DEFAULT_FILTERS: TicketFilters = { status: 'open', range: EMPTY_RANGE, wiki: null };

export const useTicketFilters = () => useState<TicketFilters>(DEFAULT_FILTERS);
