import { useCallback, useContext, useEffect, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ActionIcon, Group, Progress, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.layer.css';
import { IconCheck, IconPaperclip, IconTrash, IconUpload } from '@tabler/icons-react';
import type { UploadResult } from '@sportello/contracts';
import { ApiRequestError, upload } from '../lib/api-client';
import { errorText } from '../lib/error-text';
import { formatFileSize } from '../lib/format';
import { TenantContext } from '../lib/tenant';

export type UploadStatus = 'uploading' | 'done' | 'error';

export interface UploadItem {
  key: string;
  name: string;
  size: number;
  /** 0..1 */
  progress: number;
  status: UploadStatus;
  /** The server's answer once uploaded. */
  result?: UploadResult;
  /** Translated reason when the upload failed. */
  error?: string;
}

export interface FileUploads {
  items: UploadItem[];
  /** Ids of the files uploaded so far, in the order they were picked. */
  uploadedIds: number[];
  isUploading: boolean;
  add(files: File[]): void;
  remove(key: string): void;
  clear(): void;
}

let nextKey = 0;

/**
 * Uploads every picked file at once to `uploadUrl` (multipart field `file`), tracking each file's
 * progress. The caller sends `uploadedIds` with its form and calls `clear()` after a successful send.
 */
export function useFileUploads(uploadUrl: string): FileUploads {
  const { t } = useTranslation();
  const [items, setItems] = useState<UploadItem[]>([]);
  const controllers = useRef(new Map<string, AbortController>());

  const patch = useCallback((key: string, change: Partial<UploadItem>) => {
    setItems((list) => list.map((it) => (it.key === key ? { ...it, ...change } : it)));
  }, []);

  const add = useCallback(
    (files: File[]) => {
      const fresh = files.map((file) => ({ file, key: `upload-${++nextKey}` }));
      setItems((list) => [
        ...list,
        ...fresh.map(({ file, key }) => ({
          key,
          name: file.name,
          size: file.size,
          progress: 0,
          status: 'uploading' as const,
        })),
      ]);
      for (const { file, key } of fresh) {
        const controller = new AbortController();
        controllers.current.set(key, controller);
        upload<UploadResult>(uploadUrl, file, (progress) => patch(key, { progress }), controller.signal)
          .then((result) => patch(key, { status: 'done', progress: 1, result }))
          .catch((err: unknown) => {
            if (controller.signal.aborted) return;
            patch(key, { status: 'error', error: uploadErrorText(err, t) });
          })
          .finally(() => controllers.current.delete(key));
      }
    },
    [uploadUrl, patch, t],
  );

  const remove = useCallback((key: string) => {
    controllers.current.get(key)?.abort();
    controllers.current.delete(key);
    setItems((list) => list.filter((it) => it.key !== key));
  }, []);

  const clear = useCallback(() => {
    controllers.current.forEach((c) => c.abort());
    controllers.current.clear();
    setItems([]);
  }, []);

  useEffect(() => {
    const pending = controllers.current;
    return () => pending.forEach((c) => c.abort());
  }, []);

  return {
    items,
    uploadedIds: items.flatMap((it) => (it.status === 'done' && it.result ? [it.result.id] : [])),
    isUploading: items.some((it) => it.status === 'uploading'),
    add,
    remove,
    clear,
  };
}

function uploadErrorText(err: unknown, t: TFunction): string {
  if (err instanceof ApiRequestError) {
    if (err.status === 413) return t('tickets.upload.tooLarge');
    if (err.status === 0) return t('tickets.upload.networkError');
    return t('tickets.upload.failedWithReason', { reason: errorText(err, t) });
  }
  return t('tickets.upload.failed');
}

/** "Files up to 25 MB each": the server's limit (GET /api/Users/me), said before a file is picked. */
export function useUploadLimitText(): string | null {
  const { t, i18n } = useTranslation();
  const max = useContext(TenantContext)?.user.maxUploadBytes;
  return max ? t('common.uploadLimit', { size: formatFileSize(max, i18n.language) }) : null;
}

export interface FileUploadProps {
  uploads: FileUploads;
  /** Visible title of the drop area, also its accessible name. */
  label: string;
  disabled?: boolean;
}

/** Drag-and-drop or click to pick files; one progress bar per file and a delete button before sending. */
export function FileUpload({ uploads, label, disabled }: FileUploadProps) {
  const { t, i18n } = useTranslation();
  const limit = useUploadLimitText();
  return (
    <Stack gap="xs">
      <Dropzone
        onDrop={(files) => uploads.add(files)}
        disabled={disabled}
        multiple
        p="md"
        inputProps={{ 'aria-label': label }}
      >
        <Group justify="center" gap="sm" mih={48} style={{ pointerEvents: 'none' }}>
          <IconUpload size={24} aria-hidden />
          <div>
            <Text fw={500}>{label}</Text>
            <Text size="sm" c="dimmed">
              {t('tickets.upload.hint')}
            </Text>
            {limit && (
              <Text size="sm" c="dimmed" data-testid="upload-limit">
                {limit}
              </Text>
            )}
          </div>
        </Group>
      </Dropzone>
      {uploads.items.length > 0 && (
        <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {uploads.items.map((it) => (
            <li key={it.key}>
              <Group gap="xs" wrap="nowrap" align="center">
                {it.status === 'done' ? (
                  <IconCheck size={16} color="var(--mantine-color-green-8)" aria-hidden />
                ) : (
                  <IconPaperclip size={16} aria-hidden />
                )}
                <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                  <Group gap="xs" justify="space-between" wrap="nowrap">
                    <Text size="sm" truncate="end" title={it.name}>
                      {it.name}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                      {formatFileSize(it.size, i18n.language)}
                    </Text>
                  </Group>
                  {it.status === 'error' ? (
                    <Text size="xs" c="red.8" role="alert">
                      {it.error}
                    </Text>
                  ) : (
                    <Progress
                      value={Math.round(it.progress * 100)}
                      size="sm"
                      color={it.status === 'done' ? 'green' : undefined}
                      aria-label={t('tickets.upload.progress', { name: it.name })}
                    />
                  )}
                </Stack>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  onClick={() => uploads.remove(it.key)}
                  aria-label={t('tickets.upload.remove', { name: it.name })}
                  disabled={disabled}
                >
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Group>
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
