import { fireEvent, render, screen, waitFor, cleanup } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { useState } from 'react';
import { beforeAll, describe, expect, it, afterEach } from 'vitest';
import { i18n } from '../i18n';
import { HtmlEditor } from './html-editor';

function Harness({ plain, initial = '' }: { plain?: boolean; initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <MantineProvider>
      <HtmlEditor label="Description" value={value} onChange={setValue} plain={plain} required />
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
});
