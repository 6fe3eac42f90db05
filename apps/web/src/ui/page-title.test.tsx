import { Profiler } from 'react';
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setActivePortal } from '../lib/branding';
import { pageTitle, usePageTitle } from './page-title';
import { portalSettings } from '../test/fixtures';

afterEach(() => {
  cleanup();
  setActivePortal(null);
});

function Screen({ title }: { title: string | null }) {
  usePageTitle(title);
  return null;
}

describe('page title', () => {
  it('names the screen, then the portal', () => {
    expect(pageTitle('My tickets', 'Acme Support')).toBe('My tickets · Acme Support');
    expect(pageTitle('  ', 'Acme Support')).toBe('Acme Support');
    expect(pageTitle('Login', null)).toBe('Login · Sportello');
    expect(pageTitle(null, ' ')).toBe('Sportello');
  });

  it('follows the screen and the active portal', () => {
    const { rerender } = render(<Screen title="I miei ticket" />);
    expect(document.title).toBe('I miei ticket · Sportello');
    setActivePortal(portalSettings({ webPortalName: 'Assistenza Rossi' }));
    rerender(<Screen title="Stampante guasta" />);
    expect(document.title).toBe('Stampante guasta · Assistenza Rossi');
  });

  it('follows the portal without drawing the screen again', () => {
    let renders = 0;
    render(
      <Profiler id="screen" onRender={() => (renders += 1)}>
        <Screen title="Nuovo ticket" />
      </Profiler>,
    );
    expect(renders).toBe(1);
    act(() => setActivePortal(portalSettings({ webPortalName: 'Assistenza Rossi' })));
    expect(document.title).toBe('Nuovo ticket · Assistenza Rossi');
    act(() => setActivePortal(null));
    expect(document.title).toBe('Nuovo ticket · Sportello');
    expect(renders).toBe(1);
  });
});
