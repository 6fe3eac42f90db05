/*
 * The pages the server draws before the app has loaded: the portal's sign-in (sign-in.<language>.html;
 * apps/api modules/portals/sign-in-page.ts) and the frame of a signed-in customer screen, of a document
 * to sign or of a booking link (frame.<screen>.<language>.html; modules/portals/customer-frame-page.ts). Runs before the first paint:
 * the colour scheme Mantine would set (the user's choice in this browser, else the system's), so a dark
 * phone never flashes white; a submit of the drawn sign-in before the app is here waits for it
 * (lib/sign-in-shell.ts sends it) instead of posting the form; and the frame's takeover, here rather than
 * in the app so that the app's first load carries none of it (e2e/bundle.e2e.ts).
 * A file, not an inline script: the page's CSP allows scripts from the origin only.
 */
/* global window, document, MutationObserver */
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
  /*
   * A signed-in customer screen's first answers, asked for while the frame is parsed rather than once
   * the app's code has come and run (on a slow phone about two seconds later): the user, and on a ticket
   * or the overview their one answer when the address names the remembered contact, as
   * app/early-data.ts asks for them. lib/api-client.ts takes each answer once, for the same GET with the
   * same token, during the app's start; what it does not take is dropped. The token travels as the app
   * sends it, in the Authorization header, never in an address (docs/security.md).
   */
  var frame = document.currentScript && document.currentScript.getAttribute('data-frame');
  if (frame && window.fetch)
    try {
      var local = window.localStorage;
      var session = window.sessionStorage;
      // lib/storage.ts: a "see as this contact" tab reads its own session only.
      var token = session.getItem('viewAs')
        ? session.getItem('token')
        : (session.getItem('token') ?? local.getItem('token'));
      if (token) {
        var asked = (window.sportelloEarly = {});
        var ask = function (path) {
          var answer = window.fetch(path, {
            headers: { Accept: 'application/json', Authorization: 'Bearer ' + token },
          });
          answer.catch(function () {});
          asked[path] = { token: token, answer: answer };
        };
        ask('/api/Users/me');
        var path = window.location.pathname;
        var screen =
          frame === 'ticket'
            ? /^\/([^/]+)\/(\d+)\/tickets\/(\d+)\/?$/i.exec(path)
            : frame === 'overview'
              ? /^\/([^/]+)\/(\d+)\/overview\/?$/i.exec(path)
              : null;
        var company = local.getItem('company');
        var contactId = screen && Number(screen[2]);
        var named = null;
        try {
          named = screen && decodeURIComponent(screen[1]);
        } catch {
          // Not an address the app reads either.
        }
        // The remembered spelling of the portal is the server's own; the layout redirects another contact.
        if (
          named &&
          company &&
          company.toLowerCase() === named.toLowerCase() &&
          String(contactId) === local.getItem('contactId')
        ) {
          var base = '/api/' + encodeURIComponent(company) + '/' + contactId;
          var ticketId = frame === 'ticket' ? Number(screen[3]) : 0;
          if (frame === 'overview') ask(base + '/overview');
          else if (Number.isSafeInteger(ticketId)) ask(base + '/tickets/' + ticketId);
        }
      }
    } catch {
      // Storage refused: the app asks for what it needs itself.
    }
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
  /*
   * The frame (apps/web app/customer-frame.ts) stands before the app's `#root`, which its style hides,
   * where the full-screen spinner would stand while the user and portal load (SPEC A2, A9). It goes as
   * soon as the app has drawn a page (each has a <main>: the shell, the sign-in for a tab without a
   * session, the no-contacts and error pages), even under the spinner that lets the portal's branding
   * settle: until that spinner goes, the frame's styles stay (its theme is the portal's) and hide it, so
   * the page shows as soon as it is drawn. A mutation observer's callback runs right after the app's
   * commit, before the browser paints: nothing flashes.
   */
  if (!window.MutationObserver) return;
  var SPINNER = '[data-testid="full-screen-spinner"]';
  var kept = null;
  var observer = new MutationObserver(function () {
    var root = document.getElementById('root');
    if (kept) {
      if (root && root.querySelector(SPINNER)) return;
      kept.forEach(function (style) {
        style.remove();
      });
      observer.disconnect();
      return;
    }
    var frame = document.getElementById('customer-frame');
    // This script runs before the body is parsed: a page without a frame is known once it has been.
    if (!frame) {
      if (document.readyState !== 'loading') observer.disconnect();
      return;
    }
    // A public page's frame (a document to sign, a booking link) waits for the page's own heading, or its
    // not-found or error state, drawn in the portal's branding: `data-frame-until`.
    if (!root || !root.querySelector(frame.getAttribute('data-frame-until') || 'main')) return;
    var hide = document.createElement('style');
    hide.textContent = SPINNER + '{display:none!important}';
    kept = Array.prototype.slice.call(frame.querySelectorAll('style')).concat([hide]);
    kept.forEach(function (style) {
      document.head.appendChild(style);
    });
    frame.remove();
    if (!root.querySelector(SPINNER)) {
      kept.forEach(function (style) {
        style.remove();
      });
      observer.disconnect();
    }
  });
  // `aria-busy`: a public page's main region says so while its branding settles (ui/public-frame.tsx).
  observer.observe(document.documentElement, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['aria-busy'],
  });
})();
