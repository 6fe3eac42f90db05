import { Anchor, Box, Center, Group, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export type PreviewKind = 'pdf' | 'image' | 'other';

const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'bmp', 'webp']);

/** The extension of a file name or of a URL's path (query string ignored), lower case. */
export function fileExtension(nameOrUrl: string): string {
  const path = nameOrUrl.split(/[?#]/)[0] ?? '';
  const last = decodeURIComponent(path.split('/').pop() ?? '');
  const dot = last.lastIndexOf('.');
  return dot < 0 ? '' : last.slice(dot + 1).toLowerCase();
}

const kindOfExtension = (ext: string): PreviewKind | null =>
  ext === 'pdf' ? 'pdf' : IMAGE_EXTENSIONS.has(ext) ? 'image' : ext ? 'other' : null;

/**
 * How a file is previewed: by content type when known; else by the extension of the URL's file name
 * (signed URLs end with the stored name), else of the display name.
 */
export function previewKind(url: string, contentType?: string, name?: string): PreviewKind {
  const type = contentType?.toLowerCase() ?? '';
  if (type === 'application/pdf') return 'pdf';
  if (/^image\/(png|jpeg|gif|bmp|webp)$/.test(type)) return 'image';
  if (type && type !== 'application/octet-stream') return 'other';
  return kindOfExtension(fileExtension(url)) ?? kindOfExtension(fileExtension(name ?? '')) ?? 'other';
}

/** Signed file URLs already carry a query string (`?e=&s=`); `download=1` asks for an attachment. */
export function downloadUrl(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}download=1`;
}

export interface FilePreviewProps {
  url: string;
  /** The name shown above the preview and given to the download. */
  name?: string;
  contentType?: string;
  /** Show the name above the preview (off when a panel heading already names the file). */
  withName?: boolean;
  /** Preview height in px: 800 for documents, 900 for invoices, estimates and reports (SPEC A9). */
  height?: number;
}

/** A pdf in an iframe, an image as an image, anything else 'Preview not available'; always a Download link. */
export function FilePreview({ url, name, contentType, withName = true, height = 800 }: FilePreviewProps) {
  const { t } = useTranslation();
  const title = name ?? decodeURIComponent((url.split('?')[0] ?? '').split('/').pop() ?? '');
  const kind = previewKind(url, contentType, name);
  return (
    <Stack gap="xs">
      <Group justify={withName ? 'space-between' : 'flex-end'} wrap="nowrap">
        {withName && (
          <Text fw={600} truncate="end" title={name}>
            {name}
          </Text>
        )}
        {/* The server names the download (Content-Disposition), so `download` carries no name. */}
        <Anchor href={downloadUrl(url)} download fw={600} style={{ whiteSpace: 'nowrap' }}>
          <Group gap={4} wrap="nowrap" component="span">
            <IconDownload size={16} aria-hidden />
            {t('common.download')}
          </Group>
        </Anchor>
      </Group>
      {kind === 'pdf' ? (
        <Box
          component="iframe"
          src={url}
          title={title}
          w="100%"
          style={{
            height,
            border: '1px solid var(--mantine-color-default-border)',
            borderRadius: 4,
            display: 'block',
          }}
        />
      ) : kind === 'image' ? (
        <Box style={{ maxHeight: height, overflow: 'auto' }}>
          <img src={url} alt={title} style={{ maxWidth: '100%', display: 'block' }} />
        </Box>
      ) : (
        <Center h={120} bg="var(--mantine-color-gray-light)" style={{ borderRadius: 4 }}>
          <Text>{t('common.previewNotAvailable')}</Text>
        </Center>
      )}
    </Stack>
  );
}
