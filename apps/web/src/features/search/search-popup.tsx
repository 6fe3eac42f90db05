import { useRef, useState, type KeyboardEvent } from 'react';
import { Box, Group, Modal, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconExternalLink, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SEARCH_MIN_LENGTH, SEARCH_MAX_LENGTH, type SearchGroup } from '@sportello/contracts';
import { formatDate } from '../../lib/format';
import { useTenant } from '../../lib/tenant';
import { ListEmpty, ListError, ListLoading } from '../../ui/list-states';
import { searchQuery } from './api/search';
import { nextIndex, targetOf } from './search-links';
import classes from './search.module.css';

/** SPEC A9: search debounce. */
const SEARCH_DEBOUNCE_MS = 200;
const INPUT_ID = 'portal-search-input';

/** The one search (Ctrl+K or the header button): a text box and grouped results, each a link. */
export default function SearchPopup({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={isOpen}
      onClose={onClose}
      title={t('search.title')}
      size={800}
      styles={{ content: { maxHeight: 'min(600px, calc(100dvh - 2 * var(--modal-y-offset)))' } }}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {isOpen && <SearchBody onPick={onClose} />}
    </Modal>
  );
}

function SearchBody({ onPick }: { onPick: () => void }) {
  const { t } = useTranslation();
  const { company, contactId } = useTenant();
  const [text, setText] = useState('');
  const [debounced] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const result = useQuery(searchQuery(company, contactId, debounced));
  const bodyRef = useRef<HTMLDivElement>(null);
  const isShort = [...debounced].length < SEARCH_MIN_LENGTH;

  // Arrow keys move between the text box and the rows of every group, as in a command palette.
  const moveFocus = (e: KeyboardEvent, from: number) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const rows = Array.from(bodyRef.current?.querySelectorAll<HTMLElement>('[data-search-result]') ?? []);
    if (rows.length === 0) return;
    e.preventDefault();
    const next = nextIndex(from, e.key, rows.length);
    if (next < 0) document.getElementById(INPUT_ID)?.focus();
    else rows[next]?.focus();
  };

  // Each group's first row in the flat order the arrow keys walk.
  const firsts = (result.data?.groups ?? []).reduce<number[]>(
    (acc, g, i) => [...acc, i === 0 ? 0 : acc[i - 1]! + (result.data?.groups[i - 1]?.items.length ?? 0)],
    [],
  );
  return (
    <>
      <TextInput
        id={INPUT_ID}
        data-autofocus
        label={t('search.label')}
        placeholder={t('search.placeholder')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={text}
        maxLength={SEARCH_MAX_LENGTH}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => moveFocus(e, -1)}
        autoComplete="off"
        type="search"
      />
      <Box mt="sm" ref={bodyRef} aria-live="polite">
        {isShort ? (
          <Text size="sm" c="dimmed" py="sm">
            {t('search.hint')}
          </Text>
        ) : result.isPending ? (
          <ListLoading rows={3} />
        ) : result.isError ? (
          <ListError onRetry={() => void result.refetch()} />
        ) : result.data.groups.length === 0 ? (
          <ListEmpty text={t('search.empty', { q: debounced })} />
        ) : (
          <Stack gap="md" data-testid="search-results">
            {result.data.groups.map((g, i) => (
              <ResultGroup key={g.kind} group={g} first={firsts[i] ?? 0} onPick={onPick} onKey={moveFocus} />
            ))}
          </Stack>
        )}
      </Box>
    </>
  );
}

function ResultGroup({
  group,
  first,
  onPick,
  onKey,
}: {
  group: SearchGroup;
  first: number;
  onPick: () => void;
  onKey: (e: KeyboardEvent, from: number) => void;
}) {
  const { t } = useTranslation();
  const { basePath } = useTenant();
  const headingId = `search-group-${group.kind}`;
  return (
    <section aria-labelledby={headingId} data-search-group={group.kind}>
      <Text id={headingId} component="h3" size="xs" fw={700} tt="uppercase" c="dimmed" m={0} mb={4}>
        {t(`search.kinds.${group.kind}`)}
      </Text>
      <ul className={classes.list}>
        {group.items.map((hit, i) => {
          const target = targetOf(basePath, group.kind, hit);
          const rowProps = {
            className: classes.row,
            onClick: onPick,
            onKeyDown: (e: KeyboardEvent) => onKey(e, first + i),
            'data-search-result': true,
          };
          const body = (
            <Stack gap={0}>
              <Group gap={6} wrap="nowrap">
                <Text fw={500} truncate>
                  {hit.title}
                </Text>
                {'href' in target && (
                  <IconExternalLink size={14} aria-label={t('search.opensFile')} style={{ flexShrink: 0 }} />
                )}
              </Group>
              {(hit.detail || hit.date) && (
                <Text size="sm" c="dimmed" lineClamp={2}>
                  {[hit.detail, hit.date && formatDate(hit.date)].filter(Boolean).join(' · ')}
                </Text>
              )}
            </Stack>
          );
          return (
            <li key={hit.id}>
              {'to' in target ? (
                <UnstyledButton component={Link} to={target.to} {...rowProps}>
                  {body}
                </UnstyledButton>
              ) : (
                <UnstyledButton component="a" href={target.href} target="_blank" rel="noopener" {...rowProps}>
                  {body}
                </UnstyledButton>
              )}
            </li>
          );
        })}
      </ul>
      {group.more && (
        <Text size="xs" c="dimmed" mt={4}>
          {t('search.more')}
        </Text>
      )}
    </section>
  );
}
