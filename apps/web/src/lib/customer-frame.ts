/**
 * The frame of a customer screen the server drew (app/customer-frame.ts, before the app's hidden
 * `#root`): the header in the portal's colours and the page's title, painted before the app has run. It
 * stands where the full-screen spinner would while the user and portal load (SPEC A2, A9); the shell
 * layout removes it in a layout effect, before the browser paints, once its own shell shows (box for box
 * the same header and title) or once the tab turns out signed out (the sign-in then draws in `#root`).
 */
const frame = (): HTMLElement | null => document.getElementById('customer-frame');

/** Whether the page came with the server's frame and it is still there. */
export const hasCustomerFrame = (): boolean => frame() !== null;

/** Removes the frame, which shows the app's `#root` (its style hides it while the frame is there). */
export function removeCustomerFrame(): void {
  frame()?.remove();
}
