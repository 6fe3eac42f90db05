import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type PublicFileEntity } from '@sportello/contracts';
import { contentStaffRoutes, entityStaffRoutes, staffDeskRoutes } from '@sportello/contracts/route-refs';
import { call, pathOf } from '../../../../lib/api-client';
import { errorText } from '../../../../lib/error-text';
import { formatFileSize } from '../../../../lib/format';
import { FileUpload, useFileUploads, type UploadItem } from '../../../../ui/file-upload';
import { staffKeys } from '../../api/keys';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { TableScroll } from '../table-scroll';
import { QueryStates } from '../query-states';
import { ConfirmRemove } from '../confirm-remove';

const baseName = (name: string) => name.replace(/\.[^.]+$/, '');

/**
 * The portal's public files (issue 14 item 2): every contact of the portal sees them under Public
 * files. Drop several files at once (each uploads with its progress to the staff upload route), name
 * each and publish it by `{uploadId}`; rename and remove (confirmed) through `…/admin/public-files`.
 */
export function PublicFilesPanel() {
  const { t } = useStaffT();
  const { company } = useDesk();
  const uploads = useFileUploads(pathOf(staffDeskRoutes.upload, { company }));
  const [renaming, setRenaming] = useState<PublicFileEntity | null>(null);
  const [removing, setRemoving] = useState<PublicFileEntity | null>(null);
  const list = useQuery({
    queryKey: [...staffKeys.portal(company), 'content', 'public-files'] as const,
    queryFn: ({ signal }) => call(contentStaffRoutes.publicFiles, { params: { company }, signal }),
  });
  return (
    <Stack gap="sm" component="section" aria-labelledby="public-files-title">
      <Title order={2} size="h3" id="public-files-title">
        {t('content.publicFiles.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('content.publicFiles.hint')}
      </Text>
      <FileUpload uploads={uploads} label={t('content.publicFiles.drop')} />
      {uploads.items
        .filter((it) => it.status === 'done')
        .map((it) => (
          <PublishForm key={it.key} item={it} onPublished={() => uploads.remove(it.key)} />
        ))}
      <QueryStates
        query={list}
        isEmpty={(data) => data.items.length === 0}
        empty={t('content.publicFiles.empty')}
      >
        {(data) => (
          <TableScroll minWidth={480}>
            <Table verticalSpacing="xs" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('content.publicFiles.name')}</Table.Th>
                  <Table.Th>{t('content.fileName')}</Table.Th>
                  {/* Positioned: the hidden text stays inside the table's scroll region on a phone. */}
                  <Table.Th pos="relative">
                    <VisuallyHidden>{t('content.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((f) => (
                  <PublicFileRow key={f.id} file={f} onRename={setRenaming} onRemove={setRemoving} />
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </QueryStates>
      {renaming && <RenameModal file={renaming} onClose={() => setRenaming(null)} />}
      {removing && <RemoveModal file={removing} onClose={() => setRemoving(null)} />}
    </Stack>
  );
}

function PublicFileRow({
  file: f,
  onRename,
  onRemove,
}: {
  file: PublicFileEntity;
  onRename: (f: PublicFileEntity) => void;
  onRemove: (f: PublicFileEntity) => void;
}) {
  const { t, i18n } = useStaffT();
  return (
    <Table.Tr>
      <Table.Td>{f.fileName}</Table.Td>
      <Table.Td>
        {f.file.name}{' '}
        <Text span c="dimmed" size="xs">
          {formatFileSize(f.file.size, i18n.language)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-sm"
            variant="subtle"
            leftSection={<IconPencil size={14} aria-hidden />}
            onClick={() => onRename(f)}
            aria-label={t('content.publicFiles.renameOf', { name: f.fileName })}
          >
            {t('content.publicFiles.rename')}
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={14} aria-hidden />}
            onClick={() => onRemove(f)}
            aria-label={t('content.removeOf', { name: f.fileName })}
          >
            {t('content.remove')}
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** One uploaded file waiting for its name; a refused publish keeps the upload for another try. */
function PublishForm({ item, onPublished }: { item: UploadItem; onPublished: () => void }) {
  const { t, i18n } = useStaffT();
  const { company } = useDesk();
  const queryClient = useQueryClient();
  const [name, setName] = useState(baseName(item.name));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const publish = async () => {
    setError(null);
    if (!name.trim()) return setError(t('content.publicFiles.needName'));
    setBusy(true);
    try {
      await call(entityStaffRoutes.createPublicFile, {
        params: { company },
        body: { fileName: name.trim(), file: { uploadId: item.result!.id } },
      });
      await queryClient.invalidateQueries({
        queryKey: [...staffKeys.portal(company), 'content', 'public-files'],
      });
      onPublished();
    } catch (e) {
      setError(errorText(e, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card withBorder padding="sm" component="section" aria-label={item.name}>
      <Stack gap="xs">
        <Text fw={600} size="sm">
          {item.name}{' '}
          <Text span c="dimmed" size="xs">
            {formatFileSize(item.size, i18n.language)}
          </Text>
        </Text>
        <Group align="end" gap="sm" wrap="wrap">
          <TextInput
            label={t('content.publicFiles.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
            miw={220}
          />
          <Button onClick={() => void publish()} loading={busy}>
            {t('content.publicFiles.publish')}
          </Button>
        </Group>
        {error && (
          <Alert color="red" role="alert" p="xs">
            {error}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}

function RenameModal({ file, onClose }: { file: PublicFileEntity; onClose: () => void }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const queryClient = useQueryClient();
  const [name, setName] = useState(file.fileName);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setError(null);
    if (!name.trim()) return setError(t('content.publicFiles.needName'));
    setBusy(true);
    try {
      await call(entityStaffRoutes.updatePublicFile, {
        params: { company, publicfileid: file.id },
        body: { fileName: name.trim() },
      });
      await queryClient.invalidateQueries({
        queryKey: [...staffKeys.portal(company), 'content', 'public-files'],
      });
      onClose();
    } catch (e) {
      setError(errorText(e, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('close') }}
      title={t('content.publicFiles.renameOf', { name: file.fileName })}
    >
      <Stack
        gap="sm"
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <TextInput
          label={t('content.publicFiles.name')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          required
          data-autofocus
        />
        {error && (
          <Alert color="red" role="alert" p="xs">
            {error}
          </Alert>
        )}
        <Group justify="end">
          <Button variant="default" onClick={onClose}>
            {t('content.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {t('content.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function RemoveModal({ file, onClose }: { file: PublicFileEntity; onClose: () => void }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const queryClient = useQueryClient();
  return (
    <ConfirmRemove
      title={t('content.removeOf', { name: file.fileName })}
      text={t('content.publicFiles.removeConfirm', { name: file.fileName })}
      action={t('content.remove')}
      cancel={t('content.cancel')}
      onClose={onClose}
      remove={async () => {
        await call(entityStaffRoutes.deletePublicFile, { params: { company, publicfileid: file.id } });
        await queryClient.invalidateQueries({
          queryKey: [...staffKeys.portal(company), 'content', 'public-files'],
        });
      }}
    />
  );
}
