import { describe, expect, it } from 'vitest';
import type { StaffComment, StaffTimelineEntry } from '@sportello/contracts';
import { conversationOf } from './conversation';

const comment = (id: number, creationDate: string, internal = false): StaffComment => ({
  id,
  message: `<p>${id}</p>`,
  creationDate,
  internal,
  author: { kind: 'agent', name: 'Marco' },
  attachments: [],
  channel: 'desk',
  originalEmail: null,
  senderUnverified: false,
});
const change = (id: number, at: string): StaffTimelineEntry => ({
  id,
  at,
  kind: 'assignee',
  public: false,
  from: null,
  to: { id: 1, name: 'Marco' },
  by: { kind: 'agent', name: 'Marco' },
});

describe('the desk conversation', () => {
  it('opens with the description, then comments, notes and changes by time', () => {
    const entries = conversationOf({
      createdOn: '2026-01-01T08:00:00.000Z',
      comments: [comment(1, '2026-01-01T10:00:00.000Z'), comment(2, '2026-01-01T09:00:00.000Z', true)],
      timeline: [change(7, '2026-01-01T09:30:00.000Z'), change(8, '2026-01-01T10:00:00.000Z')],
    });
    expect(
      entries.map((e) =>
        e.kind === 'comment' ? `c${e.comment.id}` : e.kind === 'change' ? `t${e.change.id}` : 'o',
      ),
    ).toEqual(['o', 'c2', 't7', 't8', 'c1']);
  });
});
