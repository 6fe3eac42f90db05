import { Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ListRow } from '../../../ui/list-row';
import listClasses from '../../../ui/list.module.css';
import { FileTypeIcon } from './file-type-icon';

export interface FileListItem {
  id: number;
  /** Shown as the row's title. */
  title: string;
  /** Decides the type icon. */
  fileName: string;
  /** Second line (upload date), if any. */
  detail?: string;
}

/** Rows of files with a type icon; a row toggles the preview. */
export function FileList({
  items,
  selectedId,
  onToggle,
  label,
}: {
  items: FileListItem[];
  selectedId: number | null;
  onToggle: (id: number) => void;
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <ul className={listClasses.rows} aria-label={label}>
      {items.map((f) => (
        <li key={f.id} data-testid="file-row">
          <ListRow isSelected={f.id === selectedId} onClick={() => onToggle(f.id)}>
            <Group gap="sm" wrap="nowrap">
              <FileTypeIcon fileName={f.fileName} />
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {f.title}
                </Text>
                {f.detail && (
                  <Text size="sm" c="gray.7">
                    {t('documents.uploadedOn', { date: f.detail })}
                  </Text>
                )}
              </Stack>
            </Group>
          </ListRow>
        </li>
      ))}
    </ul>
  );
}
