import '@mantine/dropzone/styles.layer.css';
import { useId, useState } from 'react';
import { Button, CloseButton, Group, Progress, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconAlertTriangle, IconCheck, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../../lib/api-client';
import { useUploadContactDocument } from '../api/upload-document';
import { errorText } from '../../../lib/error-text';
import { useUploadLimitText } from '../../../ui/file-upload';

interface UploadItem {
  key: string;
  name: string;
  /** 0..1 */
  progress: number;
  status: 'uploading' | 'done' | 'error';
  error?: string;
}

/**
 * Drag-and-drop or click (Enter/Space) to upload contact documents, one progress bar per file. No size
 * or type limit on the client (SPEC A5): the server answers 413 above its limit and the row says so.
 */
export function DocumentUpload({ company, contactId }: { company: string; contactId: number }) {
  const { t } = useTranslation();
  const mutation = useUploadContactDocument(company, contactId);
  const [items, setItems] = useState<UploadItem[]>([]);
  const hintId = useId();
  const limit = useUploadLimitText();
  const update = (key: string, patch: Partial<UploadItem>) =>
    setItems((list) => list.map((i) => (i.key === key ? { ...i, ...patch } : i)));

  const uploadErrorText = (e: unknown) => {
    if (e instanceof ApiRequestError && e.status === 413) return t('documents.tooLarge');
    if (e instanceof ApiRequestError && e.status === 0) return t('documents.networkError');
    return t('documents.uploadFailed', { message: errorText(e, t) });
  };

  const onDrop = async (files: File[]) => {
    const added = files.map((file, i) => ({
      file,
      item: {
        key: `${Date.now()}-${i}-${file.name}`,
        name: file.name,
        progress: 0,
        status: 'uploading' as const,
      },
    }));
    setItems((list) => [...added.map((a) => a.item), ...list]);
    // One at a time: parallel uploads would share the bandwidth and each bar would crawl.
    for (const { file, item } of added) {
      try {
        await mutation.mutateAsync({ file, onProgress: (progress) => update(item.key, { progress }) });
        update(item.key, { status: 'done', progress: 1 });
      } catch (e) {
        update(item.key, { status: 'error', error: uploadErrorText(e) });
      }
    }
  };

  return (
    <Stack gap="xs" mb="md">
      {/*
        The zone takes drops and clicks; keyboard users reach the real Upload button inside it, whose click
        bubbles to the zone and opens the file dialog (the zone itself is not a second tab stop).
      */}
      <Dropzone
        onDrop={(files) => void onDrop(files)}
        multiple
        activateOnKeyboard={false}
        inputProps={{ 'aria-label': t('documents.upload') }}
        p="md"
        data-testid="document-dropzone"
      >
        <Group gap="md" justify="center" wrap="wrap">
          <Button leftSection={<IconUpload size={18} aria-hidden />} aria-describedby={hintId}>
            {t('documents.upload')}
          </Button>
          <Text size="sm" id={hintId}>
            {t('documents.dropHint')}
            {limit && ` (${limit})`}
          </Text>
        </Group>
      </Dropzone>
      {items.length > 0 && (
        <Stack gap={6} aria-live="polite">
          {items.map((i) => (
            <Group key={i.key} gap="sm" wrap="nowrap" data-testid="upload-item" data-status={i.status}>
              {i.status === 'done' && (
                <IconCheck size={18} color="var(--mantine-color-green-9)" aria-hidden />
              )}
              {i.status === 'error' && (
                <IconAlertTriangle size={18} color="var(--mantine-color-red-9)" aria-hidden />
              )}
              <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Text size="sm" truncate="end">
                    {i.name}
                  </Text>
                  <Text
                    size="sm"
                    c={i.status === 'error' ? 'red.9' : undefined}
                    style={{ whiteSpace: 'nowrap' }}
                  >
                    {i.status === 'uploading' && `${Math.round(i.progress * 100)}%`}
                    {i.status === 'done' && t('documents.uploaded')}
                  </Text>
                </Group>
                {i.status === 'error' ? (
                  <Text size="sm" c="red.9" role="alert">
                    {i.error}
                  </Text>
                ) : (
                  <Progress
                    value={i.progress * 100}
                    size="sm"
                    color={i.status === 'done' ? 'green.9' : undefined}
                    aria-label={t('documents.progress', { name: i.name })}
                    animated={i.status === 'uploading'}
                  />
                )}
              </Stack>
              {i.status !== 'uploading' && (
                <CloseButton
                  size="sm"
                  aria-label={t('documents.dismiss', { name: i.name })}
                  onClick={() => setItems((list) => list.filter((x) => x.key !== i.key))}
                />
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
