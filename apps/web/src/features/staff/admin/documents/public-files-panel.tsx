import { Alert, Button, Card, Group, Modal, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import { publicFileUpdateSchema, type PublicFileEntity } from '@sportello/contracts';
import { staffDeskRoutes } from '@sportello/contracts/route-refs';
import { pathOf } from '../../../../lib/api-client';
import { errorText } from '../../../../lib/error-text';
import { formatFileSize } from '../../../../lib/format';
import { FileUpload, useFileUploads, type UploadItem } from '../../../../ui/file-upload';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import {
  usePublicFiles,
  usePublishFile,
  useRemovePublicFile,
  useRenamePublicFile,
} from '../api/public-files';
import { AdminListEditor } from '../components/admin-list-editor';
import { validateWith } from '../components/contract-form';

const baseName = (name: string) => name.replace(/\.[^.]+$/, '');

/**
 * The portal's public files (issue 14 item 2): every contact of the portal sees them under Public
 * files. Drop several files at once (each uploads with its progress to the staff upload route), name
 * each and publish it by `{uploadId}`; rename and remove (confirmed) through `…/admin/public-files`.
 */
export function PublicFilesPanel() {
  const { t, i18n } = useStaffT();
  const { company } = useDesk();
  const uploads = useFileUploads(pathOf(staffDeskRoutes.upload, { company }));
  const removeFile = useRemovePublicFile(company);
  return (
    <AdminListEditor
      component="section"
      aria-labelledby="public-files-title"
      title={t('content.publicFiles.title')}
      titleId="public-files-title"
      before={
        <>
          <Text size="sm" c="dimmed">
            {t('content.publicFiles.hint')}
          </Text>
          <FileUpload uploads={uploads} label={t('content.publicFiles.drop')} />
          {uploads.items
            .filter((it) => it.status === 'done')
            .map((it) => (
              <PublishForm key={it.key} item={it} onPublished={() => uploads.remove(it.key)} />
            ))}
        </>
      }
      query={usePublicFiles(company)}
      rows={(data) => data.items}
      rowKey={(f) => f.id}
      minWidth={480}
      empty={t('content.publicFiles.empty')}
      columns={[
        { header: t('content.publicFiles.name'), cell: (f) => f.fileName },
        {
          header: t('content.fileName'),
          cell: (f) => (
            <>
              {f.file.name}{' '}
              <Text span c="dimmed" size="xs">
                {formatFileSize(f.file.size, i18n.language)}
              </Text>
            </>
          ),
        },
        {
          // Positioned: the hidden text stays inside the table's scroll region on a phone.
          header: <VisuallyHidden>{t('content.actions')}</VisuallyHidden>,
          th: { pos: 'relative' },
          cell: (f, act) => (
            <Group gap={4} wrap="nowrap">
              <Button
                size="compact-sm"
                variant="subtle"
                leftSection={<IconPencil size={14} aria-hidden />}
                onClick={act.edit}
                aria-label={t('content.publicFiles.renameOf', { name: f.fileName })}
              >
                {t('content.publicFiles.rename')}
              </Button>
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={14} aria-hidden />}
                onClick={act.remove}
                aria-label={t('content.removeOf', { name: f.fileName })}
              >
                {t('content.remove')}
              </Button>
            </Group>
          ),
        },
      ]}
      editAs="dialog"
      editor={(file, done) => file && <RenameModal file={file} onClose={done} />}
      removal={{
        title: (f) => t('content.removeOf', { name: f.fileName }),
        text: (f) => t('content.publicFiles.removeConfirm', { name: f.fileName }),
        action: t('content.remove'),
        cancel: t('content.cancel'),
        remove: (f) => removeFile(f.id),
      }}
    />
  );
}

/** The name of a public file, checked with the contract's schema (blank: the desk's words for it). */
function useNameForm(initial: string) {
  const { t } = useStaffT();
  return useForm({
    initialValues: { fileName: initial },
    validate: validateWith(
      publicFileUpdateSchema,
      (v: { fileName: string }) => ({ fileName: v.fileName.trim() }),
      () => t('content.publicFiles.needName'),
    ),
  });
}

/** One uploaded file waiting for its name; a refused publish keeps the upload for another try. */
function PublishForm({ item, onPublished }: { item: UploadItem; onPublished: () => void }) {
  const { t, i18n } = useStaffT();
  const { company } = useDesk();
  const form = useNameForm(baseName(item.name));
  const publish = usePublishFile(company);
  const onSubmit = form.onSubmit(({ fileName }) =>
    publish.mutate({ fileName: fileName.trim(), uploadId: item.result!.id }, { onSuccess: onPublished }),
  );
  const error = form.errors.fileName ?? (publish.isError ? errorText(publish.error, t) : null);
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
            {...form.getInputProps('fileName')}
            error={undefined}
            required
            miw={220}
          />
          <Button onClick={() => onSubmit()} loading={publish.isPending}>
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
  const form = useNameForm(file.fileName);
  const rename = useRenamePublicFile(company, file.id);
  const submit = form.onSubmit(({ fileName }) => rename.mutate(fileName.trim(), { onSuccess: onClose }));
  const error = form.errors.fileName ?? (rename.isError ? errorText(rename.error, t) : null);
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
          submit();
        }}
      >
        <TextInput
          label={t('content.publicFiles.name')}
          {...form.getInputProps('fileName')}
          error={undefined}
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
          <Button type="submit" loading={rename.isPending}>
            {t('content.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
