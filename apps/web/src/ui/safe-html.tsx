import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { Typography, type TypographyProps } from '@mantine/core';
import { installHtmlPolicy, sanitizeWith, type PurifierLike } from '@sportello/contracts/html-policy';

// DOMPurify's own hook type names DOM nodes; the shared policy is typed structurally so the contracts
// package needs no DOM types. The instance is the browser's global one.
const purifier = DOMPurify as unknown as PurifierLike;
let isPolicyInstalled = false;

/**
 * Sanitises HTML with the same allow-list the server applies on write. The server already cleaned it;
 * this second pass means a bug or an old row on the server cannot become script in the browser.
 */
export function sanitizeHtml(html: string | null | undefined): string {
  if (!html) return '';
  if (!isPolicyInstalled) {
    // Hooks accumulate on an instance: install them exactly once.
    installHtmlPolicy(purifier);
    isPolicyInstalled = true;
  }
  return sanitizeWith(purifier, html);
}

export interface SafeHtmlProps extends Omit<TypographyProps, 'children' | 'dangerouslySetInnerHTML'> {
  html: string | null | undefined;
}

/** Server HTML (ticket descriptions, comments, footer) rendered after a browser-side sanitise. */
export function SafeHtml({ html, ...props }: SafeHtmlProps) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return <Typography {...props} dangerouslySetInnerHTML={{ __html: clean }} />;
}
