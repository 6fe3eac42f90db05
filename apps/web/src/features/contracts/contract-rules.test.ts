import { describe, expect, it } from 'vitest';
import type { ServiceContract } from '@sportello/contracts';
import { activityAddress, filterServiceContracts, serviceBadge } from './contract-rules';

const contract = (over: Partial<ServiceContract>): ServiceContract => ({
  id: 1,
  name: 'C',
  status: 1,
  expiring30Days: false,
  isExpired: false,
  activeFrom: '2026-01-01T00:00:00Z',
  activeTo: null,
  tagIds: [],
  wikiElementIds: [],
  tags: [],
  wikiElements: [],
  documents: [],
  packages: [],
  ...over,
});

describe('serviceBadge', () => {
  it('is ATTIVO for status 1, IN SCADENZA when also expiring, SCADUTO otherwise', () => {
    expect(serviceBadge(contract({}))).toBe('active');
    expect(serviceBadge(contract({ expiring30Days: true }))).toBe('expiring');
    expect(serviceBadge(contract({ status: 4, isExpired: true }))).toBe('expired');
    expect(serviceBadge(contract({ status: 4 }))).toBe('expired');
    expect(serviceBadge(contract({ status: 1, isExpired: true }))).toBe('expired');
  });
});

describe('filterServiceContracts', () => {
  const list = [
    contract({ id: 1, tagIds: [1], wikiElementIds: [100] }),
    contract({ id: 2, tagIds: [2], wikiElementIds: [101], expiring30Days: true }),
    contract({ id: 3, status: 4, isExpired: true, tagIds: [1], wikiElementIds: [101] }),
  ];
  const ids = (f: Parameters<typeof filterServiceContracts>[1]) =>
    filterServiceContracts(list, f).map((c) => c.id);
  it('hides expired contracts unless all are asked for', () => {
    expect(ids({ active: 'active', tagIds: [], wikiElementIds: [] })).toEqual([1, 2]);
    expect(ids({ active: 'all', tagIds: [], wikiElementIds: [] })).toEqual([1, 2, 3]);
  });
  it('keeps contracts with any chosen tag and any chosen asset', () => {
    expect(ids({ active: 'all', tagIds: [1], wikiElementIds: [] })).toEqual([1, 3]);
    expect(ids({ active: 'all', tagIds: [1, 2], wikiElementIds: [101] })).toEqual([2, 3]);
    expect(ids({ active: 'active', tagIds: [1], wikiElementIds: [101] })).toEqual([]);
  });
});

describe('activityAddress', () => {
  it('shows the address only for addressType 2', () => {
    expect(activityAddress({ addressType: 2, activityLocation_Address: 'Via Emilia 1' })).toBe(
      'Via Emilia 1',
    );
    expect(activityAddress({ addressType: 1, activityLocation_Address: 'Via Emilia 1' })).toBeNull();
  });
});
