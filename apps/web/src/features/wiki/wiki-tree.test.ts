import { describe, expect, it } from 'vitest';
import type { WikiElement } from '@sportello/contracts';
import { matchesText } from '../../ui/filter-bar';
import { groupByFolder } from './wiki-tree';

const el = (id: number, name: string, wikiFolderId: number, folderName: string): WikiElement => ({
  id,
  name,
  wikiFolderId,
  folderName,
  properties: [],
  contracts: [],
});

describe('groupByFolder', () => {
  const list = [
    el(1, 'SRV-01 Server', 10, 'Rete'),
    el(2, 'Clima', 11, 'Impianti'),
    el(3, 'NAS-01', 10, 'Rete'),
  ];
  it('groups elements under their folder in the server order', () => {
    expect(groupByFolder(list, () => true).map((f) => [f.name, f.elements.map((e) => e.id)])).toEqual([
      ['Rete', [1, 3]],
      ['Impianti', [2]],
    ]);
  });
  it('keeps only matching elements and drops folders left empty', () => {
    expect(
      groupByFolder(list, (n) => matchesText(n, 'nas')).map((f) => [f.name, f.elements.map((e) => e.id)]),
    ).toEqual([['Rete', [3]]]);
  });
  it('matches names ignoring case and accents', () => {
    expect(matchesText('Capacità (TB)', 'capacita')).toBe(true);
    expect(matchesText('Server', '  ')).toBe(true);
    expect(matchesText(null, 'x')).toBe(false);
  });
});
