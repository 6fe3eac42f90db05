import { useState } from 'react';
import {
  Alert,
  Avatar,
  Button,
  FileButton,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AVATAR_MAX_BYTES,
  STAFF_DISPLAY_NAME_MAX,
  STAFF_SIGNATURE_MAX,
  type StaffProfile,
  type StaffProfileUpdate,
} from '@sportello/contracts';
import { staffDeskRoutes } from '@sportello/contracts/route-refs';
import { useParams } from 'react-router';
import { call, uploadTo } from '../../../lib/api-client';
import { errorText } from '../../../lib/error-text';
import { ListError, ListLoading } from '../../../ui/list-states';
import { staffKeys } from '../api/keys';
import { initials } from '../desk-context';
import { useStaffT } from '../i18n';
import { MyMacros } from './my-macros';

const profileKey = (company: string) => [...staffKeys.portal(company), 'profile'] as const;

/** A photo picked in this form: its upload and a local URL to show; null: back to the initials. */
type AvatarChoice = { uploadId: number; url: string } | null | undefined;

/**
 * The agent's own profile (issue 28): the name customers see on their replies, a photo or the
 * initials, and the signature that ends each reply to a customer. One save for the three.
 */
export default function StaffProfilePage() {
  const { t } = useStaffT();
  const { company = '' } = useParams();
  const profile = useQuery({
    queryKey: profileKey(company),
    queryFn: ({ signal }) => call(staffDeskRoutes.profile, { params: { company }, signal }),
  });
  if (profile.isPending) return <ListLoading />;
  if (profile.isError)
    return <ListError onRetry={() => void profile.refetch()} message={errorText(profile.error, t)} />;
  return <ProfileForm company={company} profile={profile.data} />;
}

function ProfileForm({ company, profile }: { company: string; profile: StaffProfile }) {
  const { t } = useStaffT();
  const qc = useQueryClient();
  const key = profileKey(company);
  const [name, setName] = useState(profile.displayName);
  const [signature, setSignature] = useState(profile.signature);
  const [avatar, setAvatar] = useState<AvatarChoice>(undefined);
  const [saved, setSaved] = useState(false);

  const upload = useMutation({
    mutationFn: (file: File) => uploadTo(staffDeskRoutes.upload, { company }, file),
    onSuccess: (r, file) => setAvatar({ uploadId: r.id, url: URL.createObjectURL(file) }),
  });
  const save = useMutation({
    mutationFn: () => {
      const body: StaffProfileUpdate = { displayName: name, signature };
      if (avatar !== undefined) body.avatar = avatar === null ? null : { uploadId: avatar.uploadId };
      return call(staffDeskRoutes.setProfile, { params: { company }, body });
    },
    onSuccess: (p) => {
      qc.setQueryData(key, p);
      setAvatar(undefined);
      setSaved(true);
      // The header's name, the pickers' agents and the conversations name the agent anew.
      void qc.invalidateQueries({ queryKey: staffKeys.me() });
      void qc.invalidateQueries({ queryKey: staffKeys.portal(company) });
    },
  });

  const shownUrl = avatar === undefined ? profile.avatarUrl : (avatar?.url ?? null);
  const tooLarge = upload.variables !== undefined && upload.variables.size > AVATAR_MAX_BYTES;
  const shownName = name.trim() || profile.displayName;
  return (
    <Stack gap="md" maw={640}>
      <Title order={1} size="h2">
        {t('profile.title')}
      </Title>
      <Text size="sm">{t('profile.intro')}</Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(false);
          save.mutate();
        }}
      >
        <Stack gap="md">
          <TextInput
            required
            label={t('profile.displayName')}
            value={name}
            maxLength={STAFF_DISPLAY_NAME_MAX}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Stack gap={6}>
            <Text size="sm" fw={500} id="profile-avatar">
              {t('profile.avatar')}
            </Text>
            <Group gap="sm" align="center">
              <Avatar
                src={shownUrl}
                radius="xl"
                size={56}
                color="blue"
                variant="filled"
                alt={t('profile.avatarOf', { name: shownName })}
              >
                {initials(shownName)}
              </Avatar>
              <FileButton
                accept="image/png,image/jpeg,image/gif,image/webp"
                onChange={(f) => f && upload.mutate(f)}
              >
                {(props) => (
                  <Button
                    {...props}
                    size="xs"
                    variant="default"
                    loading={upload.isPending}
                    aria-describedby="profile-avatar"
                  >
                    {t('profile.avatarPick')}
                  </Button>
                )}
              </FileButton>
              {shownUrl && (
                <Button size="xs" variant="subtle" color="red" onClick={() => setAvatar(null)}>
                  {t('profile.avatarRemove')}
                </Button>
              )}
            </Group>
            <Text size="xs" c="dimmed">
              {t('profile.avatarHint')}
            </Text>
            {(upload.isError || tooLarge) && (
              <Alert color="red" variant="light" role="alert">
                {tooLarge ? t('profile.avatarTooLarge') : errorText(upload.error, t)}
              </Alert>
            )}
          </Stack>
          <Textarea
            label={t('profile.signature')}
            description={t('profile.signatureHint')}
            value={signature}
            maxLength={STAFF_SIGNATURE_MAX}
            autosize
            minRows={3}
            maxRows={8}
            onChange={(e) => setSignature(e.currentTarget.value)}
          />
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              {t('profile.preview')}
            </Text>
            <Paper withBorder p="sm" radius="md" data-testid="profile-preview">
              <Group gap="sm" align="flex-start" wrap="nowrap">
                <Avatar src={shownUrl} radius="xl" size={36} color="blue" variant="filled" aria-hidden>
                  {initials(shownName)}
                </Avatar>
                <Stack gap={4} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={600}>
                    {shownName}
                  </Text>
                  <Text size="sm">{t('profile.previewText')}</Text>
                  {signature.trim() !== '' && (
                    <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                      {`-- \n${signature.trim()}`}
                    </Text>
                  )}
                </Stack>
              </Group>
            </Paper>
          </Stack>
          {save.isError && (
            <Alert color="red" variant="light" role="alert">
              {errorText(save.error, t)}
            </Alert>
          )}
          {saved && !save.isPending && (
            <Text c="teal.8" size="sm" role="status">
              {t('profile.saved')}
            </Text>
          )}
          <Group>
            <Button type="submit" loading={save.isPending} disabled={upload.isPending}>
              {t('profile.save')}
            </Button>
          </Group>
        </Stack>
      </form>
      <MyMacros />
    </Stack>
  );
}
