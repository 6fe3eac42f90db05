import { lazy, Suspense, useId, type ReactNode } from 'react';
import { Input, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAfterContent } from '../lib/first-content';
import classes from './html-editor-face.module.css';

/*
 * tiptap + ProseMirror are large: they load only when an editor is first shown, and after the page's main
 * content (lib/first-content): under a ticket's conversation, building the editor took a slow phone's
 * main thread for most of a second before the conversation showed.
 */
const TiptapEditor = lazy(() => import('./html-editor-tiptap'));

/** SPEC A9: the editing area is 200 px high. */
export const EDITOR_HEIGHT = 200;

export interface HtmlEditorProps {
  label: string;
  /** HTML (or plain text when `plain`); '' when empty. */
  value: string;
  onChange: (value: string) => void;
  /** The portal's disableHtmlEditor: a plain textarea instead of the rich-text editor. */
  plain?: boolean;
  required?: boolean;
  error?: ReactNode;
  disabled?: boolean;
  /** Visually hide the label (it still names the editor). */
  hideLabel?: boolean;
}

/** The rich-text editor of tickets and replies, with a fixed toolbar; a textarea when the portal disables it. */
export function HtmlEditor({
  label,
  value,
  onChange,
  plain,
  required,
  error,
  disabled,
  hideLabel,
}: HtmlEditorProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const mayLoad = useAfterContent();
  const placeholder = <EditorFace />;
  if (plain) {
    return (
      <Textarea
        label={label}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        required={required}
        error={error}
        disabled={disabled}
        styles={{ input: { height: EDITOR_HEIGHT }, label: hideLabel ? visuallyHidden : undefined }}
      />
    );
  }
  return (
    <Input.Wrapper
      label={label}
      required={required}
      error={error}
      labelProps={{ id: labelId, style: hideLabel ? visuallyHidden : undefined }}
      errorProps={{ id: errorId }}
      // The label names a contenteditable, which `for` cannot target: it is linked by aria-labelledby.
      labelElement="div"
    >
      {mayLoad ? (
        <Suspense fallback={placeholder}>
          <TiptapEditor
            labelId={labelId}
            value={value}
            onChange={onChange}
            required={required}
            invalid={!!error}
            describedBy={error ? errorId : undefined}
            disabled={disabled}
          />
        </Suspense>
      ) : (
        placeholder
      )}
    </Input.Wrapper>
  );
}

/**
 * The editor's box until its code is here: its toolbar's groups (undo and redo, the format, bold,
 * italic and colour, the four alignments, lists and indents, clear and emoticons) as boxes of their
 * sizes, wrapping as the real toolbar does at this width, and the editing area. A skeleton of a fixed
 * height was 43 px short on a phone (the toolbar takes two rows there, three at 360 px), and the
 * attachments below it moved when the editor came (new ticket's layout shift).
 */
function EditorFace() {
  const { t } = useTranslation();
  return (
    <div className={classes.root} aria-hidden data-editor-face>
      <div className={classes.toolbar}>
        <div className={classes.group} style={{ width: 52 }} />
        <div className={`${classes.group} ${classes.format}`}>
          <span>{t('tickets.editor.paragraph')}</span>
        </div>
        <div className={classes.group} style={{ width: 78 }} />
        <div className={classes.group} style={{ width: 104 }} />
        <div className={classes.group} style={{ width: 104 }} />
        <div className={classes.group} style={{ width: 52 }} />
      </div>
      <div className={classes.content} />
    </div>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

/**
 * Editor HTML or plain text with nothing to read: no text (tags, `&nbsp;` and spaces do not count) and no
 * image. The server refuses such a reply too (`empty_comment`), unless it carries files.
 */
export function isBlankMessage(message: string): boolean {
  if (/<img\s/i.test(message)) return false;
  return (
    message
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;|&#160;|\u00a0|\s/g, '')
      .trim() === ''
  );
}
