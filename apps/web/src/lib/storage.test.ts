import { afterEach, describe, expect, it } from 'vitest';
import { storage } from './storage';

describe('the token in storage', () => {
  afterEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it('keeps a remembered token in localStorage, across browser sessions', () => {
    storage.setToken('kept', true);
    expect(localStorage.getItem('token')).toBe('kept');
    expect(sessionStorage.getItem('token')).toBeNull();
    expect(storage.get('token')).toBe('kept');
    expect(storage.isTokenRemembered()).toBe(true);
  });

  it('keeps an ordinary token in sessionStorage only, and it replaces a remembered one', () => {
    storage.setToken('old', true);
    storage.setToken('tab', false);
    expect(localStorage.getItem('token')).toBeNull();
    expect(sessionStorage.getItem('token')).toBe('tab');
    expect(storage.get('token')).toBe('tab');
    expect(storage.isTokenRemembered()).toBe(false);
  });

  it('forgets the token in both places on sign-out', () => {
    storage.setToken('tab', false);
    localStorage.setItem('token', 'stale');
    storage.set('token', null);
    expect(storage.get('token')).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it("keeps a view tab's session to the tab: the customer's token and contact stay", () => {
    storage.setToken('customer', true);
    storage.set('company', 'acme');
    storage.setViewAs('view.abc', { name: 'Anna', expiresAt: '2026-11-20T10:15:00Z' });
    expect(storage.get('token')).toBe('view.abc');
    expect(storage.viewAs()).toEqual({ name: 'Anna', expiresAt: '2026-11-20T10:15:00Z' });
    // The shell remembers the contact it shows, and a 401 drops the token: neither reaches localStorage.
    storage.set('company', 'beta');
    storage.set('token', null);
    expect(localStorage.getItem('token')).toBe('customer');
    expect(localStorage.getItem('company')).toBe('acme');
    expect(storage.viewAs()).toBeNull();
    expect(storage.get('token')).toBe('customer');
  });
});
