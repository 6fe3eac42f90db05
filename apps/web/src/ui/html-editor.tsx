import { lazy, Suspense, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Input, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAfterContent } from '../lib/first-content';
import classes from './html-editor-face.module.css';
import type { TiptapEditorProps } from './html-editor-tiptap';

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
  /**
   * Build tiptap only when the user reaches the editor (focuses or presses its face), or at once after
   * the page's content when it opens with text (a draft). Until then the face is the editor: a labelled
   * textbox that keeps what is typed (as plain paragraphs) and hands it, with the focus, to the editor.
   */
  onDemand?: boolean;
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
  onDemand,
}: HtmlEditorProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const mayLoad = useAfterContent();
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
  const editorProps = {
    labelId,
    value,
    onChange,
    required,
    invalid: !!error,
    describedBy: error ? errorId : undefined,
    disabled,
  };
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
      {onDemand ? (
        <EditorOnDemand {...editorProps} mayLoad={mayLoad} />
      ) : mayLoad ? (
        <Suspense fallback={<EditorFace />}>
          <TiptapEditor {...editorProps} />
        </Suspense>
      ) : (
        <EditorFace />
      )}
    </Input.Wrapper>
  );
}

type EditorOnDemandProps = Omit<TiptapEditorProps, 'hidden' | 'onReady'> & { mayLoad: boolean };

/**
 * The face until the user reaches it, then tiptap. On a phone, building the editor was the new ticket's
 * longest task (a quarter of a second, after the form had shown) and its code the largest chunk of the
 * load; most visits reach the description after the type and the subject, if at all. The editor is
 * built hidden beside the face, which keeps the focus and what is typed until the editor shows, with the
 * same text (the face reports it as `onChange`), and the caret at its end: no key is lost.
 */
function EditorOnDemand({ mayLoad, ...props }: EditorOnDemandProps) {
  const { value, disabled } = props;
  // A draft's text shows in the editor once the page's content is there, as without `onDemand`.
  const [opensWithText] = useState(() => !isBlankMessage(value));
  const [isReached, setIsReached] = useState(false);
  const [isReady, setIsReady] = useState(false);
  const focusEditor = useRef<(() => void) | null>(null);
  const face = useRef({ isFocused: false, isSwapping: false });
  const reach = () => setIsReached(true);
  useLayoutEffect(() => {
    // The face has just gone: the focus it had goes to the editor, after the text it reported.
    if (isReady && face.current.isFocused) focusEditor.current?.();
  }, [isReady]);
  const wantsEditor = isReached || (opensWithText && mayLoad);
  return (
    <>
      {wantsEditor && (
        <Suspense fallback={null}>
          <TiptapEditor
            {...props}
            hidden={!isReady}
            onReady={(focusEnd) => {
              focusEditor.current = focusEnd;
              face.current.isSwapping = true;
              setIsReady(true);
            }}
          />
        </Suspense>
      )}
      {!isReady && (
        <EditorFace
          live={{
            ...props,
            onReach: reach,
            onFocusChange: (isFocused) => {
              // Removing the focused face may blur it: that is the editor's turn, not the user leaving.
              if (!face.current.isSwapping) face.current.isFocused = isFocused;
            },
            disabled,
          }}
        />
      )}
    </>
  );
}

/** Plain text typed into the face as the editor's HTML: a paragraph a line, '' when blank. */
export function plainTextHtml(text: string): string {
  const lines = text.replace(/\n$/, '').split('\n');
  if (lines.every((line) => line.trim() === '')) return '';
  const escape = (line: string) =>
    line
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/\u00a0/g, '&nbsp;');
  return lines.map((line) => `<p>${escape(line)}</p>`).join('');
}

/**
 * The editor's box until its code is here: its toolbar's groups (undo and redo, the format, bold,
 * italic and colour, the four alignments, lists and indents, clear and emoticons) as boxes of their
 * sizes, wrapping as the real toolbar does at this width, and the editing area. A skeleton of a fixed
 * height was 43 px short on a phone (the toolbar takes two rows there, three at 360 px), and the
 * attachments below it moved when the editor came (new ticket's layout shift).
 */
interface LiveFace extends Omit<TiptapEditorProps, 'hidden' | 'onReady' | 'value'> {
  onReach: () => void;
  onFocusChange: (isFocused: boolean) => void;
}

function EditorFace({ live }: { live?: LiveFace }) {
  const { t } = useTranslation();
  return (
    <div
      className={classes.root}
      aria-hidden={live ? undefined : true}
      data-editor-face
      onPointerDown={live?.onReach}
    >
      <div className={classes.toolbar} aria-hidden={live ? true : undefined}>
        <div className={classes.group} style={{ width: 52 }} />
        <div className={`${classes.group} ${classes.format}`}>
          <span>{t('tickets.editor.paragraph')}</span>
        </div>
        <div className={classes.group} style={{ width: 78 }} />
        <div className={classes.group} style={{ width: 104 }} />
        <div className={classes.group} style={{ width: 104 }} />
        <div className={classes.group} style={{ width: 52 }} />
      </div>
      {live ? (
        // The editing area as the editor's (tiptap's attributes, ariaAttributes): it keeps what is typed.
        <div
          className={classes.content}
          role="textbox"
          aria-multiline="true"
          aria-labelledby={live.labelId}
          aria-required={live.required || undefined}
          aria-invalid={live.invalid || undefined}
          aria-describedby={live.describedBy}
          aria-disabled={live.disabled || undefined}
          contentEditable={!live.disabled}
          suppressContentEditableWarning
          tabIndex={0}
          onFocus={() => {
            live.onFocusChange(true);
            live.onReach();
          }}
          onBlur={() => live.onFocusChange(false)}
          onInput={(e) => live.onChange(plainTextHtml(e.currentTarget.innerText))}
        />
      ) : (
        <div className={classes.content} />
      )}
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
