import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../ui/testing';
import { fileTypeKind } from './file-type-icon';
import { DocumentUpload } from './document-upload';

/** An XMLHttpRequest that reports progress, then answers with the status the test chose. */
class FakeXhr {
  static status = 201;
  static last: FakeXhr | null = null;
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  statusText = '';
  responseText = '';
  url = '';
  headers: Record<string, string> = {};
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  abort() {}
  send() {
    FakeXhr.last = this;
  }
  /** The test moves the upload along. */
  progress(loaded: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded, total: 100 } as ProgressEvent));
  }
  finish() {
    this.status = FakeXhr.status;
    this.responseText =
      FakeXhr.status === 413
        ? JSON.stringify({ code: 'payload_too_large', message: 'Too large' })
        : JSON.stringify({ id: 9, url: '/api/files/9/a.pdf?e=1&s=x' });
    act(() => this.onload?.());
  }
}

describe('fileTypeKind', () => {
  it('maps png/jpg/jpeg, pdf, docx and zip, and the rest to other', () => {
    expect(
      ['a.PNG', 'b.jpg', 'c.jpeg', 'd.pdf', 'e.docx', 'f.zip', 'g.xlsx', 'noext'].map(fileTypeKind),
    ).toEqual(['image', 'image', 'image', 'pdf', 'docx', 'zip', 'other', 'other']);
  });
});

describe('DocumentUpload', { timeout: 20_000 }, () => {
  beforeEach(() => vi.stubGlobal('XMLHttpRequest', FakeXhr));
  afterEach(() => vi.unstubAllGlobals());

  const drop = (name: string) => {
    const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
    const file = new File(['%PDF-1.4'], name, { type: 'application/pdf' });
    fireEvent.change(input, { target: { files: [file] } });
  };

  it('posts the file, shows its progress and then that it is uploaded', async () => {
    FakeXhr.status = 201;
    renderWithProviders(<DocumentUpload company="demo" contactId={11} />);
    FakeXhr.last = null;
    drop('contract.pdf');
    const bar = await screen.findByRole('progressbar', { name: 'Upload of contract.pdf' });
    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    expect(FakeXhr.last!.url).toBe('/api/demo/11/documents/upload/contact');
    FakeXhr.last!.progress(40);
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByText('40%')).toBeTruthy();
    FakeXhr.last!.finish();
    expect(await screen.findByText('Uploaded')).toBeTruthy();
  });

  it('says when the server refuses a file as too large (413)', async () => {
    FakeXhr.status = 413;
    renderWithProviders(<DocumentUpload company="demo" contactId={11} />);
    FakeXhr.last = null;
    drop('huge.pdf');
    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    FakeXhr.last!.finish();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The file is too large: it was not uploaded.',
    );
  });
});
