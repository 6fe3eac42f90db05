import './italian-browser';
import { configure } from '@testing-library/react';
import { vi } from 'vitest';
import { i18n, loadAllLanguages } from '../i18n';
import { STAFF_NS, STAFF_TEXTS } from '../features/staff/i18n';

// Lazy parts (pages, the filters' controls after a list) load their chunk first: beside the other suites
// on CI's two cores that takes more than Testing Library's 1 s default. Files that need longer set it.
configure({ asyncUtilTimeout: 5000 });

// Mantine reads these browser APIs that jsdom lacks.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView = () => {};

// Production fetches a language when chosen; tests switch languages synchronously, so all are loaded up front.
await loadAllLanguages();

// …and the desk's texts in every language (production fetches the current one with the desk's pages).
for (const [lang, load] of Object.entries(STAFF_TEXTS))
  i18n.addResourceBundle(lang, STAFF_NS, (await load()).default);
