/*
 * The portal's sign-in before the app has loaded (the server's sign-in.<language>.html; apps/api
 * modules/portals/sign-in-page.ts). Runs before the first paint: the colour scheme Mantine would set
 * (the user's choice in this browser, else the system's), so a dark phone never flashes white; and a
 * submit before the app is here waits for it (lib/sign-in-shell.ts sends it) instead of posting the form.
 * A file, not an inline script: the page's CSP allows scripts from the origin only.
 */
/* global window, document */
(function () {
  var scheme = null;
  try {
    scheme = window.localStorage.getItem('sportello-color-scheme');
  } catch {
    // Storage refused (a private mode): the system's scheme.
  }
  if (scheme !== 'light' && scheme !== 'dark')
    scheme =
      window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
  document.addEventListener(
    'submit',
    function (event) {
      var form = event.target;
      if (!form || !form.hasAttribute || !form.hasAttribute('data-sign-in-shell-form')) return;
      event.preventDefault();
      form.setAttribute('data-submitted', '');
      var button = form.querySelector('button[type="submit"]');
      if (button) button.setAttribute('data-loading', 'true');
    },
    true,
  );
})();
