import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Tabs,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import {
  MACRO_NAME_MAX,
  MACRO_PLACEHOLDERS,
  TICKET_TAGS_MAX,
  macroLanguages,
  ticketPriorities,
  type Macro,
  type MacroActions,
  type MacroLanguage,
  type MacroTexts,
} from '@sportello/contracts';
import { errorText } from '../../../../lib/error-text';
import { HtmlEditor, isBlankMessage } from '../../../../ui/html-editor';
import { useDeskOptions } from '../../api/options';
import { useMacros, useRemoveMacro, useSaveMacro } from '../../api/macros';
import { describeActions } from '../../components/macro-picker';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { AdminListEditor, iconActionsColumn } from '../components/admin-list-editor';

/**
 * The list of macros with their editor (issue 28 item 6): `shared` the portal's (the administration's
 * section, admins only), `mine` the agent's own (their profile). One component for both.
 */
export function MacroList({ scope }: { scope: 'shared' | 'mine' }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const options = useDeskOptions(company);
  const remove = useRemoveMacro(company);
  const title = scope === 'shared' ? t('macros.manage.sharedTitle') : t('macros.manage.mineTitle');
  return (
    <AdminListEditor
      component="section"
      aria-labelledby={`macros-${scope}`}
      data-testid={`macros-${scope}`}
      title={title}
      titleId={`macros-${scope}`}
      newLabel={t('macros.manage.new')}
      before={
        <Text size="sm" c="dimmed">
          {scope === 'shared' ? t('macros.manage.sharedIntro') : t('macros.manage.mineIntro')}
        </Text>
      }
      query={useMacros(company, '', scope)}
      rows={(data) => data.items}
      rowKey={(m) => m.id}
      rowProps={() => ({ 'data-testid': 'macro-row' })}
      minWidth={520}
      empty={t('macros.manage.empty')}
      columns={[
        { header: t('macros.manage.name'), cell: (m) => m.name },
        {
          header: t('macros.manage.languages'),
          cell: (m) => (
            <Group gap={4}>
              {macroLanguages
                .filter((l) => m.texts[l])
                .map((l) => (
                  <Badge key={l} size="sm" variant="light" color="gray">
                    {l.slice(0, 2).toUpperCase()}
                  </Badge>
                ))}
            </Group>
          ),
        },
        {
          header: t('macros.manage.actions'),
          cell: (m) => (
            <Text size="sm">
              {describeActions(m.actions, options.data, t)
                .map((d) => d.text)
                .join(' · ') || '—'}
            </Text>
          ),
        },
        iconActionsColumn<Macro>({
          heading: t('content.actions'),
          edit: (m) => t('macros.manage.editOf', { name: m.name }),
          remove: (m) => t('macros.manage.removeOf', { name: m.name }),
        }),
      ]}
      editor={(m, done) => <MacroForm macro={m} shared={scope === 'shared'} onDone={done} />}
      removal={{
        title: (m) => t('macros.manage.removeOf', { name: m.name }),
        text: (m) => t('macros.manage.removeConfirm', { name: m.name }),
        action: t('macros.manage.remove'),
        cancel: t('macros.manage.cancel'),
        remove: (m) => remove(m.id),
      }}
    />
  );
}

const UNCHANGED = '';
const NONE = 'none';

/** A new macro (`macro` null) or the change of one: name, a text per language, the ticket's changes. */
function MacroForm({ macro, shared, onDone }: { macro: Macro | null; shared: boolean; onDone: () => void }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const options = useDeskOptions(company).data;
  const save = useSaveMacro(company, macro?.id ?? null);
  const [name, setName] = useState(macro?.name ?? '');
  const [texts, setTexts] = useState<MacroTexts>(macro?.texts ?? {});
  const [actions, setActions] = useState<MacroActions>(macro?.actions ?? {});
  const [problem, setProblem] = useState<string | null>(null);
  const [tab, setTab] = useState<MacroLanguage>('it-IT');

  const idSelect = (key: 'stepId' | 'assigneeId' | 'groupId') => ({
    value: actions[key] === undefined ? UNCHANGED : actions[key] === null ? NONE : String(actions[key]),
    onChange: (v: string | null) =>
      setActions((a) => ({
        ...a,
        [key]: !v || v === UNCHANGED ? undefined : v === NONE ? null : Number(v),
      })),
    allowDeselect: false,
  });
  const unchanged = { value: UNCHANGED, label: t('macros.manage.unchanged') };

  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setProblem(t('macros.manage.nameRequired'));
    const kept = Object.fromEntries(
      Object.entries(texts).filter(([, v]) => v !== undefined && !isBlankMessage(v)),
    ) as MacroTexts;
    if (Object.keys(kept).length === 0) return setProblem(t('macros.manage.textRequired'));
    setProblem(null);
    save.mutate(
      { name: name.trim(), shared, texts: kept, actions },
      { onSuccess: onDone, onError: (err) => setProblem(errorText(err, t)) },
    );
  };

  const label = macro ? t('macros.manage.editOf', { name: macro.name }) : t('macros.manage.new');
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      onSubmit={onSubmit}
      aria-label={label}
      noValidate
      data-testid="macro-form"
    >
      <Stack gap="sm">
        <Text fw={700}>{label}</Text>
        {problem && (
          <Alert color="red" variant="light" role="alert">
            {problem}
          </Alert>
        )}
        <TextInput
          label={t('macros.manage.name')}
          required
          maxLength={MACRO_NAME_MAX}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          data-testid="macro-name"
        />
        <Text size="sm" c="dimmed">
          {t('macros.manage.textHint', {
            list: MACRO_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', '),
            interpolation: { escapeValue: false },
          })}
        </Text>
        <Tabs value={tab} onChange={(v) => v && setTab(v as MacroLanguage)} keepMounted={false}>
          <Tabs.List>
            {macroLanguages.map((l) => (
              <Tabs.Tab key={l} value={l}>
                {t(`macros.lang.${l}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {macroLanguages.map((l) => (
            <Tabs.Panel key={l} value={l} pt="xs">
              <HtmlEditor
                label={t('macros.manage.text', { language: t(`macros.lang.${l}`) })}
                value={texts[l] ?? ''}
                onChange={(v) => setTexts((now) => ({ ...now, [l]: v }))}
              />
            </Tabs.Panel>
          ))}
        </Tabs>
        <Text fw={600} size="sm">
          {t('macros.manage.actions')}
        </Text>
        <Group grow align="flex-start" wrap="wrap" gap="sm">
          <Select
            label={t('macros.manage.step')}
            data={[unchanged, ...(options?.steps ?? []).map((s) => ({ value: String(s.id), label: s.name }))]}
            miw={180}
            {...idSelect('stepId')}
          />
          <Select
            label={t('macros.manage.assignee')}
            data={[
              unchanged,
              { value: NONE, label: t('macros.manage.nobody') },
              ...(options?.agents ?? []).map((a) => ({ value: String(a.id), label: a.displayName })),
            ]}
            searchable
            miw={180}
            {...idSelect('assigneeId')}
          />
          <Select
            label={t('macros.manage.group')}
            data={[
              unchanged,
              { value: NONE, label: t('macros.manage.noGroup') },
              ...(options?.groups ?? []).map((g) => ({ value: String(g.id), label: g.name })),
            ]}
            miw={180}
            {...idSelect('groupId')}
          />
          <Select
            label={t('macros.manage.priority')}
            data={[unchanged, ...ticketPriorities.map((p) => ({ value: p, label: t(`priority.${p}`) }))]}
            value={actions.priority ?? UNCHANGED}
            onChange={(v) =>
              setActions((a) => ({
                ...a,
                priority: v ? (v as (typeof ticketPriorities)[number]) : undefined,
              }))
            }
            allowDeselect={false}
            miw={160}
          />
        </Group>
        <TagsInput
          label={t('macros.manage.tags')}
          value={actions.tags ?? []}
          onChange={(v) => setActions((a) => ({ ...a, tags: v.length ? v : undefined }))}
          data={(options?.ticketTags ?? []).map((g) => g.name)}
          maxTags={TICKET_TAGS_MAX}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            {t('macros.manage.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="macro-save">
            {t('macros.manage.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
