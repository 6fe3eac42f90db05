import { fireEvent, render, screen, waitFor, cleanup } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { useState } from 'react';
import { beforeAll, describe, expect, it, afterEach } from 'vitest';
import { i18n } from '../i18n';
import { HtmlEditor, plainTextHtml } from './html-editor';

function Harness({
  plain,
  initial = '',
  onDemand,
}: {
  plain?: boolean;
  initial?: string;
  onDemand?: boolean;
}) {
  const [value, setValue] = useState(initial);
  return (
    <MantineProvider>
      <HtmlEditor
        label="Description"
        value={value}
        onChange={setValue}
        plain={plain}
        required
        onDemand={onDemand}
      />
      <output data-testid="value">{value}</output>
      <button type="button" onClick={() => setValue('')}>
        reset
      </button>
    </MantineProvider>
  );
}

afterEach(cleanup);

describe('HtmlEditor', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en-EN');
  });

  it('is a plain textarea when the portal disables the HTML editor', () => {
    render(<Harness plain />);
    const box = screen.getByRole('textbox', { name: /Description/ });
    expect(box.tagName).toBe('TEXTAREA');
    fireEvent.change(box, { target: { value: 'plain text' } });
    expect(screen.getByTestId('value').textContent).toBe('plain text');
    expect(screen.queryByRole('toolbar')).toBeNull();
  });

  it('loads the rich-text editor lazily: a labelled textbox and the fixed toolbar', async () => {
    render(<Harness initial="<p>Hello</p>" />);
    const box = await screen.findByRole('textbox', { name: /Description/ }, { timeout: 10_000 });
    expect(box.getAttribute('contenteditable')).toBe('true');
    expect(box.getAttribute('aria-required')).toBe('true');
    await waitFor(() => expect(box.textContent).toBe('Hello'));
    const toolbar = screen.getByRole('toolbar', { name: 'Formatting' });
    for (const name of [
      'Undo',
      'Redo',
      'Format',
      'Bold',
      'Italic',
      'Background colour',
      'Align left',
      'Align centre',
      'Align right',
      'Justify',
      'Bulleted list',
      'Numbered list',
      'Decrease indent',
      'Increase indent',
      'Remove format',
      'Emoticons',
    ])
      expect(toolbar.querySelector(`[aria-label="${name}"]`), name).not.toBeNull();
  });

  it('replaces its content when the value is reset from outside', async () => {
    render(<Harness initial="<p>Draft</p>" />);
    const box = await screen.findByRole('textbox', { name: /Description/ }, { timeout: 10_000 });
    await waitFor(() => expect(box.textContent).toBe('Draft'));
    fireEvent.click(screen.getByRole('button', { name: 'reset' }));
    await waitFor(() => expect(box.textContent).toBe(''));
  });

  it('on demand, is its face until reached: what is typed there goes to the editor, with the focus', async () => {
    render(<Harness onDemand />);
    const face = screen.getByRole('textbox', { name: /Description/ });
    expect(face.getAttribute('contenteditable')).toBe('true');
    expect(face.getAttribute('aria-required')).toBe('true');
    expect(face.closest('[data-editor-face]')).not.toBeNull();
    // Not built before the user comes.
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByRole('toolbar')).toBeNull();
    face.focus();
    // Typed before the editor's code is here (jsdom has no innerText: the face's text as the browser's).
    face.textContent = 'The printer smokes';
    Object.defineProperty(face, 'innerText', { value: 'The printer smokes', configurable: true });
    fireEvent.input(face);
    expect(screen.getByTestId('value').textContent).toBe('<p>The printer smokes</p>');
    await screen.findByRole('toolbar', { name: 'Formatting' }, { timeout: 10_000 });
    const box = screen.getByRole('textbox', { name: /Description/ });
    expect(box).not.toBe(face);
    expect(box.closest('[data-editor-face]')).toBeNull();
    await waitFor(() => expect(box.textContent).toBe('The printer smokes'));
    expect(box.contains(document.activeElement)).toBe(true);
  });

  it('on demand, opens a draft in the editor without being reached', async () => {
    render(<Harness onDemand initial="<p>Draft</p>" />);
    await screen.findByRole('toolbar', { name: 'Formatting' }, { timeout: 10_000 });
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: /Description/ }).textContent).toBe('Draft'),
    );
  });

  it('turns text typed into the face into paragraphs', () => {
    expect(plainTextHtml('')).toBe('');
    expect(plainTextHtml(' \n ')).toBe('');
    expect(plainTextHtml('a < b & c\n\nnext\n')).toBe('<p>a &lt; b &amp; c</p><p></p><p>next</p>');
  });
});
