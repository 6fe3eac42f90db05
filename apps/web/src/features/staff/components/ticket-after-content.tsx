import { lazy, Suspense, type ComponentProps, type ComponentType } from 'react';
import { afterContent } from '../../../lib/first-content';
import type { Composer as ComposerPart } from './composer';
import type { CustomerPanel as CustomerPart } from './customer-panel';
import type { TaskLinksPanel as TaskLinksPart } from './task-links-panel';
import type { TicketSidePanel as SidePart } from './ticket-side-panel';
import type { TimePanel as TimePart } from './time-panel';

/*
 * The parts of a desk ticket that come after its conversation (the reply's composer, the side panels):
 * chunks of their own, asked for once the conversation is shown (lib/first-content; at once when the
 * page is opened from the inbox). Imported by the page itself, their code — the composer's upload and
 * macro picker, the side panel's Selects and TagsInput, the time fields' NumberInput and dates, about
 * 100 KB gzip in 25 files — was fetched and evaluated before the conversation could show, and
 * desk-ticket.html announced all of it beside the entry (bench/RESULTS.md, session 18).
 */
const parts = afterContent().then(() => ({
  composer: quiet(import('./composer')),
  side: quiet(import('./ticket-side-panel')),
  time: quiet(import('./time-panel')),
  taskLinks: quiet(import('./task-links-panel')),
  customer: quiet(import('./customer-panel')),
}));
type Parts = Awaited<typeof parts>;

/** A failed load is the part's to throw (to the app's error boundary) when it renders, not unhandled. */
function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  return p;
}

/** A part as a component: nothing in its place until its code is here (each has a place of its own). */
function part<P extends object>(pick: (p: Parts) => Promise<ComponentType<P>>): ComponentType<P> {
  const Lazy = lazy(() => parts.then(pick).then((c) => ({ default: c })));
  return function Part(props: P) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}

export const Composer = part<ComponentProps<typeof ComposerPart>>((p) => p.composer.then((m) => m.Composer));
export const TicketSidePanel = part<ComponentProps<typeof SidePart>>((p) =>
  p.side.then((m) => m.TicketSidePanel),
);
export const TimePanel = part<ComponentProps<typeof TimePart>>((p) => p.time.then((m) => m.TimePanel));
export const TaskLinksPanel = part<ComponentProps<typeof TaskLinksPart>>((p) =>
  p.taskLinks.then((m) => m.TaskLinksPanel),
);
export const CustomerPanel = part<ComponentProps<typeof CustomerPart>>((p) =>
  p.customer.then((m) => m.CustomerPanel),
);
