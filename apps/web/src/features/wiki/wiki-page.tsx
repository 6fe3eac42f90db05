import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Anchor, Collapse, Group, List, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconChevronRight, IconFileText, IconFolder } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { WikiElement, WikiProperty } from '@sportello/contracts';
import { dayjs } from '../../lib/dates';
import { formatDate } from '../../lib/format';
import { useTenant } from '../../lib/tenant';
import { FilterBar, SearchFilter, matchesText } from '../../ui/filter-bar';
import { ListRow } from '../../ui/list-row';
import { ListEmpty, ListStates } from '../../ui/list-states';
import { SidePanelLayout } from '../../ui/side-panel-layout';
import { useWikiElements } from './api/wiki-elements';
import classes from './components/wiki.module.css';
import { groupByFolder, type WikiFolder } from './wiki-tree';
import { usePageTitle } from '../../ui/page-title';

/** SPEC A2 "Wiki": folders (all open) of elements, a name search, and a property panel for the chosen element. */
export default function WikiPage() {
  const { t } = useTranslation();
  usePageTitle(t('wiki.title'));
  const { company, contactId } = useTenant();
  const elements = useWikiElements(company, contactId);
  const [text, setText] = useState('');
  const [closed, setClosed] = useState<ReadonlySet<number>>(new Set());
  // `?element=` (a search result) opens that element's panel.
  const [params] = useSearchParams();
  const [selectedId, setSelectedId] = useState<number | null>(() => Number(params.get('element')) || null);
  const folders = groupByFolder(elements.data ?? [], (name) => matchesText(name, text));
  const selected = elements.data?.find((e) => e.id === selectedId) ?? null;

  const toggleFolder = (id: number) =>
    setClosed((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <>
      <Title order={1} mb="md">
        {t('wiki.title')}
      </Title>
      <FilterBar label={t('wiki.filters')}>
        <SearchFilter label={t('wiki.search')} value={text} onChange={setText} />
      </FilterBar>
      <SidePanelLayout
        panelTitle={selected?.name ?? ''}
        onClose={() => setSelectedId(null)}
        panel={selected ? <ElementPanel key={selected.id} element={selected} /> : null}
        list={
          <ListStates query={elements} isEmpty={folders.length === 0}>
            <ul className={classes.folders} aria-label={t('wiki.folders')}>
              {folders.map((f) => (
                <FolderItem
                  key={f.id}
                  folder={f}
                  isOpen={!closed.has(f.id)}
                  onToggle={() => toggleFolder(f.id)}
                  selectedId={selectedId}
                  onSelect={(id) => setSelectedId((cur) => (cur === id ? null : id))}
                />
              ))}
            </ul>
          </ListStates>
        }
      />
    </>
  );
}

function FolderItem({
  folder,
  isOpen,
  onToggle,
  selectedId,
  onSelect,
}: {
  folder: WikiFolder;
  isOpen: boolean;
  onToggle: () => void;
  selectedId: number | null;
  onSelect: (id: number) => void;
}) {
  const panelId = `wiki-folder-${folder.id}`;
  return (
    <li data-testid="wiki-folder">
      <UnstyledButton
        className={classes.folderToggle}
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={onToggle}
      >
        <IconChevronRight size={16} className={classes.chevron} aria-hidden />
        <IconFolder size={18} aria-hidden />
        <span>{folder.name}</span>
      </UnstyledButton>
      <Collapse expanded={isOpen} id={panelId}>
        <ul className={classes.elements}>
          {folder.elements.map((e) => (
            <li key={e.id} data-testid="wiki-element">
              <ListRow isSelected={e.id === selectedId} onClick={() => onSelect(e.id)}>
                <Text>{e.name}</Text>
              </ListRow>
            </li>
          ))}
        </ul>
      </Collapse>
    </li>
  );
}

/** The chosen element's properties (searchable by typology) and the contracts that list it. */
function ElementPanel({ element }: { element: WikiElement }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const properties = element.properties.filter((p) => matchesText(p.typologyName, text));
  return (
    <Stack gap="md" data-testid="wiki-panel">
      <SearchFilter label={t('wiki.propertySearch')} value={text} onChange={setText} />
      {properties.length === 0 ? (
        <ListEmpty />
      ) : (
        <dl className={classes.properties} aria-label={t('wiki.properties')}>
          {properties.map((p) => (
            <PropertyRow key={p.id} property={p} />
          ))}
        </dl>
      )}
      <Stack gap={4}>
        <Text fw={700} component="h3" m={0}>
          {t('wiki.contracts')}
        </Text>
        {element.contracts.length === 0 ? (
          <Text size="sm" c="gray.7">
            {t('wiki.noContracts')}
          </Text>
        ) : (
          <List size="sm" data-testid="wiki-contracts">
            {element.contracts.map((c) => (
              <List.Item key={c.id}>{c.name}</List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Stack>
  );
}

function PropertyRow({ property: p }: { property: WikiProperty }) {
  return (
    <>
      <dt>{p.typologyName}</dt>
      <dd>
        <PropertyValue property={p} />
      </dd>
    </>
  );
}

function PropertyValue({ property: p }: { property: WikiProperty }) {
  const { t } = useTranslation();
  if (p.dataType === 'file')
    return p.url ? (
      <Anchor href={p.url} target="_blank" rel="noopener">
        <Group gap={4} wrap="nowrap" component="span">
          <IconFileText size={16} aria-hidden />
          {p.value ?? t('wiki.file')}
        </Group>
      </Anchor>
    ) : (
      <>{p.value ?? '—'}</>
    );
  if (p.value === null || p.value === '') return <>—</>;
  switch (p.dataType) {
    case 'bool':
      return <>{p.value === 'true' || p.value === '1' ? t('wiki.yes') : t('wiki.no')}</>;
    case 'date':
      // A calendar day stays that day in every zone; an instant is shown in the portal's zone.
      return (
        <>
          {/^\d{4}-\d{2}-\d{2}$/.test(p.value)
            ? dayjs(p.value, 'YYYY-MM-DD').format('DD/MM/YYYY')
            : formatDate(p.value)}
        </>
      );
    case 'url':
      return /^https?:\/\//i.test(p.value) ? (
        <Anchor href={p.value} target="_blank" rel="noopener noreferrer">
          {p.value}
        </Anchor>
      ) : (
        <>{p.value}</>
      );
    default:
      return <>{p.value}</>;
  }
}
