// The screens follow the browser's language until the user picks one (i18n/index.ts); jsdom's is
// en-US. The tests are written against an Italian browser, as most of the portal's users have, so this
// runs before the texts load (first import of setup.ts).
Object.defineProperty(window.navigator, 'languages', { configurable: true, value: ['it-IT', 'it'] });
Object.defineProperty(window.navigator, 'language', { configurable: true, value: 'it-IT' });
