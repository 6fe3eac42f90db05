import { Anchor, Group, Image, Paper, Text } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';

export interface AttachmentLike {
  id: number;
  name: string;
  url: string;
}

const IMAGE_NAME = /\.(jpg|jpeg|png|bmp)$/i;
/** SPEC A2: files whose names end jpg, png, jpeg or bmp show as thumbnails. */
export const isImageName = (name: string) => IMAGE_NAME.test(name.trim());

const MAX_NAME = 20;
const CUT_NAME = 19;
/**
 * SPEC A2/A9: a name longer than 20 characters is cut to 19 plus '...'. The name keeps its own case
 * (decision of issue 29: in capitals, "REPORT.PDF" read as shouting and hid the name people gave it).
 */
export function attachmentDisplayName(name: string): string {
  // Count code points, not UTF-16 units, so an accented or emoji name is never cut mid-character.
  const chars = Array.from(name);
  return chars.length > MAX_NAME ? `${chars.slice(0, CUT_NAME).join('')}...` : name;
}

export interface AttachmentListProps {
  attachments: AttachmentLike[];
}

/** The files of a ticket or comment: images as thumbnails, other files as a paperclip and a short name. */
export function AttachmentList({ attachments }: AttachmentListProps) {
  if (attachments.length === 0) return null;
  const images = attachments.filter((a) => isImageName(a.name));
  const files = attachments.filter((a) => !isImageName(a.name));
  return (
    <Group gap="xs" mt="xs" align="flex-start" data-testid="attachment-list">
      {images.map((a) => (
        <Anchor key={a.id} href={a.url} target="_blank" rel="noopener noreferrer" title={a.name}>
          <Paper withBorder radius="sm" p={2}>
            <Image src={a.url} alt={a.name} w={96} h={96} fit="cover" radius="sm" loading="lazy" />
          </Paper>
        </Anchor>
      ))}
      {files.map((a) => (
        <Anchor
          key={a.id}
          href={a.url}
          target="_blank"
          rel="noopener noreferrer"
          title={a.name}
          underline="hover"
          c="inherit"
        >
          <Paper withBorder radius="sm" px="xs" py={4}>
            <Group gap={4} wrap="nowrap">
              <IconPaperclip size={16} aria-hidden />
              <Text size="sm" span>
                {attachmentDisplayName(a.name)}
              </Text>
            </Group>
          </Paper>
        </Anchor>
      ))}
    </Group>
  );
}
