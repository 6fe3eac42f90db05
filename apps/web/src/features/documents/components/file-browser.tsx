import { useState } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { FilePreview } from '../../../ui/file-preview';
import { FilterBar, SearchFilter, matchesText } from '../../../ui/filter-bar';
import { ListStates } from '../../../ui/list-states';
import { SidePanelLayout } from '../../../ui/side-panel-layout';
import { FileList, type FileListItem } from './file-list';

interface BrowsedFile {
  id: number;
  url: string;
  fileName: string;
  contentType: string;
}

/**
 * Company files and public files (SPEC A2): a search over the rows' titles, the list, and the chosen
 * file previewed beside it (800 px); a second click on a row closes the preview.
 */
export function FileBrowser<T extends BrowsedFile>(props: {
  query: UseQueryResult<T[]>;
  /** The list's accessible name. */
  label: string;
  filtersLabel: string;
  searchLabel: string;
  /** A row as the list shows it; its title is what the search matches and what the panel is called. */
  row: (item: T) => Omit<FileListItem, 'id'>;
}) {
  const [text, setText] = useState('');
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const rows = (props.query.data ?? [])
    .map((item) => ({ item, shown: { id: item.id, ...props.row(item) } }))
    .filter((r) => matchesText(r.shown.title, text));
  const selected = rows.find((r) => r.item.id === selectedId) ?? null;

  return (
    <>
      <FilterBar label={props.filtersLabel}>
        <SearchFilter label={props.searchLabel} value={text} onChange={setText} />
      </FilterBar>
      <SidePanelLayout
        panelTitle={selected?.shown.title ?? ''}
        onClose={() => setSelectedId(null)}
        panel={
          selected ? (
            <FilePreview
              withName={false}
              url={selected.item.url}
              name={selected.item.fileName}
              contentType={selected.item.contentType}
              height={800}
            />
          ) : null
        }
        list={
          <ListStates query={props.query} isEmpty={rows.length === 0}>
            <FileList
              label={props.label}
              items={rows.map((r) => r.shown)}
              selectedId={selectedId}
              onToggle={(id) => setSelectedId((cur) => (cur === id ? null : id))}
            />
          </ListStates>
        }
      />
    </>
  );
}
