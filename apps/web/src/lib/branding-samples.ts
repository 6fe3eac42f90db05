/**
 * Portal colours of every kind the branding editor accepts: none (the default theme), the demo's,
 * saturated hues at each end of the lightness, greys, white and black. The desk's badges are checked
 * against each of them twice: by arithmetic (features/staff/components/badge-vars.test.ts) and by axe in
 * the browser, each set through the branding API (e2e/agent-morning.e2e.ts). Test data only: nothing of
 * the app imports it.
 */
export const PORTAL_COLOURS: readonly (string | null)[] = [
  null,
  '#0b5cad',
  '#1c7ed6',
  '#ffd43b',
  '#fab005',
  '#2f9e44',
  '#40c057',
  '#e8590c',
  '#ff0000',
  '#00ffff',
  'hsl(60, 100%, 50%)',
  '#7048e8',
  '#f783ac',
  '#868e96',
  '#ffffff',
  '#000000',
];
