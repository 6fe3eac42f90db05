// The tiptap editor itself. Imported only through React.lazy in html-editor.tsx, so tiptap and
// ProseMirror stay out of the first page's bundle.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ColorSwatch, Menu, Popover, SimpleGrid, UnstyledButton } from '@mantine/core';
import { RichTextEditor, type RichTextEditorLabels } from '@mantine/tiptap';
import '@mantine/tiptap/styles.layer.css';
import { useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import TextAlign from '@tiptap/extension-text-align';
import { BackgroundColor, TextStyle } from '@tiptap/extension-text-style';
import {
  IconChevronDown,
  IconDroplet,
  IconDropletOff,
  IconIndentDecrease,
  IconIndentIncrease,
  IconMoodSmile,
  IconTextSize,
} from '@tabler/icons-react';
import classes from './html-editor.module.css';

export interface TiptapEditorProps {
  labelId: string;
  value: string;
  onChange: (html: string) => void;
  required?: boolean;
  invalid?: boolean;
  describedBy?: string;
  disabled?: boolean;
  /** Built but not shown yet (html-editor.tsx's face stands in for it). */
  hidden?: boolean;
  /** Called once the editor is built, with what puts the focus at its end. */
  onReady?: (focusEnd: () => void) => void;
}

/** Light tints that keep dark text readable (WCAG AA) when used as a text background. */
export const BACKGROUND_COLOURS = [
  { key: 'yellow', value: '#fff3bf' },
  { key: 'green', value: '#d3f9d8' },
  { key: 'blue', value: '#d0ebff' },
  { key: 'violet', value: '#e5dbff' },
  { key: 'pink', value: '#ffdeeb' },
  { key: 'red', value: '#ffe3e3' },
  { key: 'orange', value: '#ffe8cc' },
  { key: 'grey', value: '#e9ecef' },
] as const;

export const EMOTICONS = [
  '😀', '😃', '😄', '😁', '😊', '🙂', '😉', '😍',
  '😘', '😎', '🤔', '😐', '😕', '🙁', '😢', '😭',
  '😡', '😱', '😴', '🤗', '🙏', '👍', '👎', '👌',
  '👏', '💪', '🎉', '❤️', '⭐', '✅', '❌', '⚠️',
  '❓', '💡', '📎', '📅', '⏰', '🔧', '🚀', '☕',
]; // prettier-ignore

const isEmptyDoc = (editor: Editor) => editor.isEmpty;

/** The editable area is a labelled multi-line textbox for assistive technology (axe: editor without a label). */
function ariaAttributes(p: Pick<TiptapEditorProps, 'labelId' | 'required' | 'invalid' | 'describedBy'>) {
  const attrs: Record<string, string> = {
    role: 'textbox',
    'aria-multiline': 'true',
    'aria-labelledby': p.labelId,
  };
  if (p.required) attrs['aria-required'] = 'true';
  if (p.invalid) attrs['aria-invalid'] = 'true';
  if (p.describedBy) attrs['aria-describedby'] = p.describedBy;
  return attrs;
}

export default function TiptapEditor({
  labelId,
  value,
  onChange,
  required,
  invalid,
  describedBy,
  disabled,
  hidden,
  onReady,
}: TiptapEditorProps) {
  const { t } = useTranslation();
  // The last HTML this editor reported: a different `value` from outside (a reset after sending)
  // replaces the content, our own echo does not.
  const emitted = useRef(value);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  const editor = useEditor({
    immediatelyRender: false,
    editable: !disabled,
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2, 3] },
        code: false,
        codeBlock: false,
        link: {
          openOnClick: false,
          autolink: true,
          defaultProtocol: 'https',
          protocols: ['http', 'https', 'mailto'],
        },
      }),
      TextStyle,
      BackgroundColor,
      TextAlign.configure({ types: ['heading', 'paragraph'] }),
    ],
    content: value,
    editorProps: {
      attributes: ariaAttributes({ labelId, required, invalid, describedBy }),
    },
    onUpdate: ({ editor: e }) => {
      const html = isEmptyDoc(e) ? '' : e.getHTML();
      emitted.current = html;
      onChangeRef.current(html);
    },
  });

  useEffect(() => {
    if (!editor || editor.isDestroyed || value === emitted.current) return;
    emitted.current = value;
    editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  useEffect(() => {
    editor?.setEditable(!disabled);
  }, [editor, disabled]);

  const onReadyRef = useRef(onReady);
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    // The face it replaces is where the user is: no scrolling.
    onReadyRef.current?.(() => editor.commands.focus('end', { scrollIntoView: false }));
  }, [editor]);

  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    editor.setOptions({
      editorProps: { attributes: ariaAttributes({ labelId, required, invalid, describedBy }) },
    });
  }, [editor, labelId, required, invalid, describedBy]);

  const labels: Partial<RichTextEditorLabels> = {
    undoControlLabel: t('tickets.editor.undo'),
    redoControlLabel: t('tickets.editor.redo'),
    boldControlLabel: t('tickets.editor.bold'),
    italicControlLabel: t('tickets.editor.italic'),
    alignLeftControlLabel: t('tickets.editor.alignLeft'),
    alignCenterControlLabel: t('tickets.editor.alignCenter'),
    alignRightControlLabel: t('tickets.editor.alignRight'),
    alignJustifyControlLabel: t('tickets.editor.alignJustify'),
    bulletListControlLabel: t('tickets.editor.bulletList'),
    orderedListControlLabel: t('tickets.editor.orderedList'),
    clearFormattingControlLabel: t('tickets.editor.removeFormat'),
  };

  return (
    <RichTextEditor
      editor={editor}
      labels={labels}
      className={classes.root}
      data-invalid={invalid || undefined}
      style={hidden ? { display: 'none' } : undefined}
    >
      <RichTextEditor.Toolbar aria-label={t('tickets.editor.toolbar')} role="toolbar">
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Undo />
          <RichTextEditor.Redo />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <FormatControl editor={editor} />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Bold />
          <RichTextEditor.Italic />
          <BackgroundColourControl editor={editor} />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.AlignLeft />
          <RichTextEditor.AlignCenter />
          <RichTextEditor.AlignRight />
          <RichTextEditor.AlignJustify />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.BulletList />
          <RichTextEditor.OrderedList />
          <IndentControls editor={editor} />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.ClearFormatting />
          <EmoticonControl editor={editor} />
        </RichTextEditor.ControlsGroup>
      </RichTextEditor.Toolbar>
      <RichTextEditor.Content className={classes.content} />
    </RichTextEditor>
  );
}

interface ControlProps {
  editor: Editor | null;
}

const FORMATS = [
  { key: 'paragraph', level: 0 },
  { key: 'heading1', level: 1 },
  { key: 'heading2', level: 2 },
  { key: 'heading3', level: 3 },
] as const;

/** Paragraph or heading 1–3 for the current block. */
function FormatControl({ editor }: ControlProps) {
  const { t } = useTranslation();
  const level = useEditorState({
    editor,
    selector: ({ editor: e }) => {
      if (!e || e.isDestroyed) return 0;
      return ([1, 2, 3] as const).find((l) => e.isActive('heading', { level: l })) ?? 0;
    },
  });
  const current = FORMATS.find((f) => f.level === (level ?? 0)) ?? FORMATS[0];
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <RichTextEditor.Control
          aria-label={t('tickets.editor.format')}
          title={t('tickets.editor.format')}
          px={6}
          w="auto"
          disabled={!editor}
        >
          <IconTextSize size={16} aria-hidden />
          <span className={classes.formatName}>{t(`tickets.editor.${current.key}`)}</span>
          <IconChevronDown size={12} aria-hidden />
        </RichTextEditor.Control>
      </Menu.Target>
      <Menu.Dropdown>
        {FORMATS.map((f) => (
          <Menu.Item
            key={f.key}
            onClick={() => {
              if (!editor) return;
              const chain = editor.chain().focus();
              if (f.level === 0) chain.setParagraph().run();
              else chain.setHeading({ level: f.level }).run();
            }}
            fw={f.level === (level ?? 0) ? 700 : undefined}
          >
            {t(`tickets.editor.${f.key}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** A small palette of light background tints, plus 'no colour'. */
function BackgroundColourControl({ editor }: ControlProps) {
  const { t } = useTranslation();
  return (
    <Popover position="bottom" withinPortal shadow="md" trapFocus>
      <Popover.Target>
        <RichTextEditor.Control
          aria-label={t('tickets.editor.backgroundColour')}
          title={t('tickets.editor.backgroundColour')}
          disabled={!editor}
        >
          <IconDroplet size={16} aria-hidden />
        </RichTextEditor.Control>
      </Popover.Target>
      <Popover.Dropdown p="xs">
        <SimpleGrid cols={5} spacing={6}>
          {BACKGROUND_COLOURS.map((c) => (
            <ColorSwatch
              key={c.key}
              component="button"
              type="button"
              color={c.value}
              size={24}
              aria-label={t(`tickets.editor.colours.${c.key}`)}
              title={t(`tickets.editor.colours.${c.key}`)}
              onClick={() => editor?.chain().focus().setBackgroundColor(c.value).run()}
              style={{ cursor: 'pointer' }}
            />
          ))}
          <UnstyledButton
            aria-label={t('tickets.editor.noColour')}
            title={t('tickets.editor.noColour')}
            onClick={() => editor?.chain().focus().unsetBackgroundColor().run()}
            className={classes.noColour}
          >
            <IconDropletOff size={16} aria-hidden />
          </UnstyledButton>
        </SimpleGrid>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Outdent / indent the current list item (a nested list). */
function IndentControls({ editor }: ControlProps) {
  const { t } = useTranslation();
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      canIndent: !!e && !e.isDestroyed && e.can().sinkListItem('listItem'),
      canOutdent: !!e && !e.isDestroyed && e.can().liftListItem('listItem'),
    }),
  });
  return (
    <>
      <RichTextEditor.Control
        aria-label={t('tickets.editor.outdent')}
        title={t('tickets.editor.outdent')}
        disabled={!state?.canOutdent}
        onClick={() => editor?.chain().focus().liftListItem('listItem').run()}
      >
        <IconIndentDecrease size={16} aria-hidden />
      </RichTextEditor.Control>
      <RichTextEditor.Control
        aria-label={t('tickets.editor.indent')}
        title={t('tickets.editor.indent')}
        disabled={!state?.canIndent}
        onClick={() => editor?.chain().focus().sinkListItem('listItem').run()}
      >
        <IconIndentIncrease size={16} aria-hidden />
      </RichTextEditor.Control>
    </>
  );
}

/** A popover of common emoji, inserted as unicode characters at the cursor. */
function EmoticonControl({ editor }: ControlProps) {
  const { t } = useTranslation();
  return (
    <Popover position="bottom-end" withinPortal shadow="md" trapFocus>
      <Popover.Target>
        <RichTextEditor.Control
          aria-label={t('tickets.editor.emoticons')}
          title={t('tickets.editor.emoticons')}
          disabled={!editor}
        >
          <IconMoodSmile size={16} aria-hidden />
        </RichTextEditor.Control>
      </Popover.Target>
      <Popover.Dropdown p="xs">
        <SimpleGrid cols={8} spacing={2} role="group" aria-label={t('tickets.editor.emoticons')}>
          {EMOTICONS.map((e) => (
            <UnstyledButton
              key={e}
              className={classes.emoji}
              onClick={() => editor?.chain().focus().insertContent(e).run()}
            >
              {e}
            </UnstyledButton>
          ))}
        </SimpleGrid>
      </Popover.Dropdown>
    </Popover>
  );
}
