import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  ColorInput,
  FileButton,
  Grid,
  Group,
  Image,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import {
  adminPortalSettingsPatchSchema,
  LOGO_MAX_BYTES,
  type AdminPortalSettings,
  type AdminPortalSettingsPatch,
  type PortalSettings,
} from '@sportello/contracts';
import { brandingContrast } from '../../../../lib/branding';
import {
  PREVIEW_READY,
  PREVIEW_SETTINGS,
  previewPath,
  type PreviewSettingsMessage,
} from '../../../../lib/branding-preview';
import { errorText } from '../../../../lib/error-text';
import { LANGUAGES } from '../../../../i18n';
import { ListError, ListLoading } from '../../../../ui/list-states';
import { usePageTitle } from '../../../../ui/page-title';
import { useAdminSettings, useDeskUpload, useSaveSettings } from '../api/settings';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { requiredOrInvalid, validateWith } from '../components/contract-form';

/** A logo picked in this form: its upload and a local URL for the preview; null: removed; undefined: kept. */
type LogoChoice = { uploadId: number; url: string; name: string } | null | undefined;

/** The fields of the form; `baseColor` '' is the default colour. */
type Draft = Omit<AdminPortalSettings, 'key' | 'logo' | 'updatedAt' | 'baseColor'> & {
  baseColor: string;
  logo: LogoChoice;
};
const FIELDS = [
  'name',
  'baseColor',
  'customCss',
  'footerHtml',
  'privacyHtml',
  'timeZone',
  'defaultLanguage',
  'enableServiceContracts',
  'disableHtmlEditor',
  'overviewLanding',
  'lowRatingThreshold',
] as const satisfies readonly (keyof Draft)[];

const draftOf = (s: AdminPortalSettings): Draft => ({
  name: s.name,
  baseColor: s.baseColor ?? '',
  customCss: s.customCss,
  footerHtml: s.footerHtml,
  privacyHtml: s.privacyHtml,
  timeZone: s.timeZone,
  defaultLanguage: s.defaultLanguage,
  enableServiceContracts: s.enableServiceContracts,
  disableHtmlEditor: s.disableHtmlEditor,
  overviewLanding: s.overviewLanding,
  lowRatingThreshold: s.lowRatingThreshold,
  logo: undefined,
});

/** The changed fields as the PATCH body, or null when nothing changed. */
function patchOf(draft: Draft, saved: AdminPortalSettings): AdminPortalSettingsPatch | null {
  const { logo } = draft;
  const before = draftOf(saved);
  const patch: Record<string, unknown> = {};
  for (const f of FIELDS) if (draft[f] !== before[f]) patch[f] = draft[f];
  if ('baseColor' in patch) patch.baseColor = draft.baseColor.trim() === '' ? null : draft.baseColor.trim();
  if (logo !== undefined) patch.logo = logo === null ? null : { uploadId: logo.uploadId };
  return Object.keys(patch).length === 0 ? null : (patch as AdminPortalSettingsPatch);
}

const ZONES = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['Europe/Rome'];
  }
})();

/**
 * The portal's settings (issue 14 item 5): name, colour with its contrast, logo, custom CSS, footer and
 * privacy HTML, zone, language and switches, beside a live preview of the customer's own shell wearing
 * the draft (a framed portal page that takes the draft by postMessage; the custom CSS applies there
 * only). Save sends the changed fields; the HTML shown after saving is what the server kept.
 */
export default function BrandingPage() {
  const { t } = useStaffT();
  const { company } = useDesk();
  usePageTitle(t('admin.sections.branding'));
  const settings = useAdminSettings(company);
  // Kept here: a save remounts the form with what the server stored.
  const [isSaved, setIsSaved] = useState(false);
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin.sections.branding')}
      </Title>
      {isSaved && (
        <Alert color="teal" variant="light" role="status" withCloseButton onClose={() => setIsSaved(false)}>
          {t('branding.saved')}
        </Alert>
      )}
      {settings.isPending ? (
        <ListLoading />
      ) : settings.isError ? (
        <ListError onRetry={() => void settings.refetch()} message={errorText(settings.error, t)} />
      ) : (
        <SettingsForm
          key={settings.data.updatedAt}
          saved={settings.data}
          onSaved={() => setIsSaved(true)}
          onEdit={() => setIsSaved(false)}
        />
      )}
    </Stack>
  );
}

function SettingsForm({
  saved,
  onSaved,
  onEdit,
}: {
  saved: AdminPortalSettings;
  onSaved: () => void;
  onEdit: () => void;
}) {
  const { t } = useStaffT();
  const { company } = useDesk();
  // The PATCH body's rules (a name, a plain colour, the lengths), as the server's; nothing changed: nothing to check.
  const form = useForm<Draft>({
    initialValues: draftOf(saved),
    onValuesChange: onEdit,
    validate: validateWith(
      adminPortalSettingsPatchSchema,
      (d: Draft) => patchOf(d, saved) ?? {},
      requiredOrInvalid(t),
      /^(name|baseColor|customCss|footerHtml|privacyHtml)$/,
    ),
  });
  const draft = form.getValues();
  const { logo } = draft;
  const setLogo = (choice: LogoChoice) => form.setFieldValue('logo', choice);
  const patch = patchOf(draft, saved);

  const upload = useDeskUpload(company);
  const uploadLogo = (file: File) =>
    upload.mutate(file, {
      onSuccess: (r) => setLogo({ uploadId: r.id, url: URL.createObjectURL(file), name: file.name }),
    });
  const save = useSaveSettings(company);
  const logoUrl = logo === undefined ? (saved.logo?.url ?? null) : logo === null ? null : logo.url;
  const contrast = brandingContrast(draft.baseColor.trim() || null);
  const preview = useMemo<PortalSettings>(
    () => ({
      webPortalKey: saved.key,
      webPortalName: draft.name,
      customCss: draft.customCss,
      disableHtmlEditor: draft.disableHtmlEditor,
      logoUrl,
      baseColor: draft.baseColor.trim() || null,
      footerCustomHtml: draft.footerHtml,
      enableServiceContracts: draft.enableServiceContracts,
      timeZone: draft.timeZone,
      defaultLanguage: draft.defaultLanguage,
      overviewLanding: draft.overviewLanding,
    }),
    [draft, logoUrl, saved.key],
  );
  const tooLarge = upload.variables && upload.variables.size > LOGO_MAX_BYTES;

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, lg: 6 }}>
        <Card
          withBorder
          component="form"
          noValidate
          onSubmit={form.onSubmit((d) => {
            const body = patchOf(d, saved);
            if (body) save.mutate(body, { onSuccess: onSaved });
          })}
        >
          <Stack gap="sm">
            <TextInput label={t('branding.name')} {...form.getInputProps('name')} required />
            <ColorInput
              label={t('branding.baseColor')}
              description={t('branding.baseColorHint')}
              {...form.getInputProps('baseColor')}
              format="hex"
              placeholder={t('branding.defaultColor')}
              eyeDropperButtonProps={{ 'aria-label': t('branding.eyeDropper') }}
              data-testid="base-color"
            />
            <ContrastCheck contrast={contrast} />
            <Stack gap={6}>
              <Text size="sm" fw={500}>
                {t('branding.logo')}
              </Text>
              <Group gap="sm" align="center">
                {logoUrl ? (
                  <Image src={logoUrl} alt={t('branding.logoAlt')} h={40} w="auto" fit="contain" />
                ) : (
                  <Text size="sm" c="dimmed">
                    {t('branding.noLogo')}
                  </Text>
                )}
                <FileButton
                  accept="image/png,image/jpeg,image/gif,image/webp"
                  onChange={(f) => f && uploadLogo(f)}
                >
                  {(props) => (
                    <Button {...props} size="xs" variant="default" loading={upload.isPending}>
                      {t('branding.chooseLogo')}
                    </Button>
                  )}
                </FileButton>
                {logoUrl && (
                  <Button size="xs" variant="subtle" color="red" onClick={() => setLogo(null)}>
                    {t('branding.removeLogo')}
                  </Button>
                )}
              </Group>
              <Text size="xs" c="dimmed">
                {t('branding.logoHint')}
              </Text>
              {(upload.isError || tooLarge) && (
                <Alert color="red" variant="light" role="alert">
                  {tooLarge ? t('branding.logoTooLarge') : errorText(upload.error, t)}
                </Alert>
              )}
            </Stack>
            <Select
              label={t('branding.timeZone')}
              data={ZONES}
              value={draft.timeZone}
              onChange={(v) => v && form.setFieldValue('timeZone', v)}
              searchable
              allowDeselect={false}
            />
            <Select
              label={t('branding.language')}
              data={LANGUAGES.map((l) => ({ value: l.value, label: l.label }))}
              value={draft.defaultLanguage}
              onChange={(v) => v && form.setFieldValue('defaultLanguage', v as Draft['defaultLanguage'])}
              allowDeselect={false}
            />
            <Switch
              label={t('branding.serviceContracts')}
              description={t('branding.serviceContractsHint')}
              {...form.getInputProps('enableServiceContracts', { type: 'checkbox' })}
            />
            <Switch
              label={t('branding.htmlEditor')}
              description={t('branding.htmlEditorHint')}
              checked={!draft.disableHtmlEditor}
              onChange={(e) => form.setFieldValue('disableHtmlEditor', !e.currentTarget.checked)}
            />
            <Switch
              label={t('branding.overviewLanding')}
              description={t('branding.overviewLandingHint')}
              {...form.getInputProps('overviewLanding', { type: 'checkbox' })}
            />
            <Select
              label={t('branding.lowRating')}
              description={t('branding.lowRatingHint')}
              data={[0, 1, 2, 3, 4].map((n) => ({
                value: String(n),
                label: n === 0 ? t('branding.lowRatingOff') : t('branding.lowRatingAtMost', { n }),
              }))}
              value={String(draft.lowRatingThreshold)}
              onChange={(v) => v !== null && form.setFieldValue('lowRatingThreshold', Number(v))}
              allowDeselect={false}
              data-testid="low-rating-threshold"
            />
            <CodeArea
              label={t('branding.customCss')}
              description={t('branding.customCssHint')}
              {...form.getInputProps('customCss')}
              rows={[3, 12]}
            />
            <CodeArea
              label={t('branding.footerHtml')}
              description={t('branding.htmlHint')}
              {...form.getInputProps('footerHtml')}
              rows={[2, 10]}
            />
            <CodeArea
              label={t('branding.privacyHtml')}
              description={t('branding.htmlHint')}
              {...form.getInputProps('privacyHtml')}
              rows={[3, 12]}
            />
            {save.isError && (
              <Alert color="red" variant="light" role="alert">
                {errorText(save.error, t)}
              </Alert>
            )}
            <Group justify="flex-end" gap="sm">
              <Button
                variant="default"
                disabled={!patch || save.isPending}
                onClick={() => {
                  form.reset();
                  save.reset();
                }}
              >
                {t('branding.discard')}
              </Button>
              <Button type="submit" disabled={!patch} loading={save.isPending}>
                {t('branding.save')}
              </Button>
            </Group>
          </Stack>
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 6 }}>
        <Preview company={company} settings={preview} />
      </Grid.Col>
    </Grid>
  );
}

/** CSS or HTML typed by hand: monospace, no spell check, growing with its text. */
function CodeArea({
  rows,
  ...input
}: {
  label: string;
  description: string;
  rows: [number, number];
} & ReturnType<UseFormReturnType<Draft>['getInputProps']>) {
  return (
    <Textarea
      {...input}
      autosize
      minRows={rows[0]}
      maxRows={rows[1]}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      spellCheck={false}
    />
  );
}

function ContrastCheck({ contrast }: { contrast: ReturnType<typeof brandingContrast> }) {
  const { t } = useStaffT();
  const ratio = (r: number) => `${r.toFixed(1)}:1`;
  const passes = (r: number) => r >= 4.5;
  return (
    <Stack gap={4} data-testid="contrast-check" aria-live="polite">
      {!contrast.readable && (
        <Text size="sm" c="red.8">
          {t('branding.unreadableColor')}
        </Text>
      )}
      <Group gap="xs" wrap="wrap">
        <span
          aria-hidden
          style={{
            background: contrast.header.background,
            color: contrast.header.color,
            padding: '2px 8px',
            borderRadius: 4,
            fontSize: 12,
            border: '1px solid var(--mantine-color-default-border)',
          }}
        >
          Aa
        </span>
        <Text size="sm">
          {t('branding.headerText', {
            color: t(contrast.header.color === '#ffffff' ? 'branding.white' : 'branding.black'),
            ratio: ratio(contrast.header.ratio),
          })}
        </Text>
        <Badge color={passes(contrast.header.ratio) ? 'teal.9' : 'red.9'} variant="outline">
          {passes(contrast.header.ratio) ? t('branding.passesAA') : t('branding.failsAA')}
        </Badge>
      </Group>
      {contrast.primary && (
        <Group gap="xs" wrap="wrap">
          <span
            aria-hidden
            style={{
              background: contrast.primary.color,
              width: 24,
              height: 16,
              borderRadius: 4,
              display: 'inline-block',
            }}
          />
          <Text size="sm">
            {t('branding.primaryText', {
              color: contrast.primary.color,
              ratio: ratio(contrast.primary.ratio),
            })}
          </Text>
          <Badge color={passes(contrast.primary.ratio) ? 'teal.9' : 'red.9'} variant="outline">
            {passes(contrast.primary.ratio) ? t('branding.passesAA') : t('branding.failsAA')}
          </Badge>
        </Group>
      )}
    </Stack>
  );
}

/**
 * The customer's shell in a frame of the same origin, wearing `settings`: the frame says when it is
 * ready, then takes each draft as it changes.
 */
function Preview({ company, settings }: { company: string; settings: PortalSettings }) {
  const { t } = useStaffT();
  const frame = useRef<HTMLIFrameElement>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      if (e.origin !== window.location.origin || e.source !== frame.current?.contentWindow) return;
      if ((e.data as { type?: unknown } | null)?.type === PREVIEW_READY) setReady(true);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);
  useEffect(() => {
    if (!ready) return;
    const message: PreviewSettingsMessage = { type: PREVIEW_SETTINGS, settings };
    frame.current?.contentWindow?.postMessage(message, window.location.origin);
  }, [ready, settings]);
  return (
    <Stack gap={6} pos="sticky" top={72}>
      <Text size="sm" fw={500}>
        {t('branding.preview')}
      </Text>
      <iframe
        ref={frame}
        src={previewPath(company)}
        title={t('branding.previewTitle')}
        data-testid="branding-preview-frame"
        style={{
          width: '100%',
          height: 640,
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 8,
          background: 'white',
        }}
      />
      <Text size="xs" c="dimmed">
        {t('branding.previewHint')}
      </Text>
    </Stack>
  );
}
