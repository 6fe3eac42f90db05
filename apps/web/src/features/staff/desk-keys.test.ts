import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDeskKeys } from './desk-keys';

const press = (key: string, target: Element = document.body, init: KeyboardEventInit = {}) =>
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }));

afterEach(() => {
  document.body.innerHTML = '';
});

describe('desk shortcuts', () => {
  it('fire on a bare key and stop its default', () => {
    const j = vi.fn();
    renderHook(() => useDeskKeys({ j }));
    expect(press('j')).toBe(false);
    expect(j).toHaveBeenCalledTimes(1);
  });

  it('never fire while the agent types, in a field or the editor, or with a modifier', () => {
    const r = vi.fn();
    renderHook(() => useDeskKeys({ r }));
    document.body.innerHTML =
      '<input id="i"><textarea id="t"></textarea><div contenteditable="true"><p id="p">x</p></div>' +
      '<div role="dialog"><button id="b">ok</button></div>';
    for (const id of ['i', 't', 'p', 'b']) press('r', document.getElementById(id)!);
    press('r', document.body, { ctrlKey: true });
    press('r', document.body, { metaKey: true });
    expect(r).not.toHaveBeenCalled();
  });

  it('leave Enter to a focused link or button', () => {
    const enter = vi.fn();
    renderHook(() => useDeskKeys({ Enter: enter }));
    document.body.innerHTML = '<a id="a" href="#">x</a><div id="d" tabindex="0">row</div>';
    press('Enter', document.getElementById('a')!);
    expect(enter).not.toHaveBeenCalled();
    press('Enter', document.getElementById('d')!);
    expect(enter).toHaveBeenCalledTimes(1);
  });
});
