import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, screenshot } from './browser';
import { PASSWORD, post, waitForMail } from './kit';

// Demo data: user `demo` (demo@sportello.example) holds contact 11 of portal `demo`; agent 1 is Marco Ferri.
const ADMIN = process.env.PORTAL_ADMIN_KEY ?? '';

describe('integration API', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("an agent's answer sent through the API shows in the customer's conversation and is e-mailed", async () => {
    const login = await post<{ token: string }>('/api/auth/login', '', {
      userName: 'demo',
      password: PASSWORD,
    });
    const ticket = await post<{ id: number }>('/api/demo/11/tickets', login.token, {
      title: `Integration journey ${Date.now()}`,
      taskTypeId: 2,
      description: '<p>Please answer through the back office</p>',
      attachments: [],
    });
    const key = await post<{ secret: string }>('/api/admin/portals/demo/keys', ADMIN, {
      name: 'e2e back office',
      scopes: ['write', 'events'],
    });
    const answer = 'Replaced the <b>power supply</b>; it works again.';
    const comment = await post<{ id: number; notified: boolean }>(
      `/api/integration/v1/tickets/${ticket.id}/comments`,
      key.secret,
      { senderAgentId: 1, message: `<p>${answer}</p>` },
      { 'idempotency-key': `e2e-${ticket.id}` },
    );
    expect(comment.notified).toBe(true);

    // The customer's conversation shows the agent's answer.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    await context.addInitScript((t) => {
      localStorage.setItem('token', t);
      localStorage.setItem('language', 'en-EN');
    }, login.token);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/demo/11/tickets/${ticket.id}`);
    const last = page.getByTestId('ticket-comment').last();
    await last.waitFor();
    expect(await last.getByTestId('message-author').innerText()).toBe('Marco Ferri');
    expect(await last.getByTestId('message-body').innerText()).toBe(
      'Replaced the power supply; it works again.',
    );
    expect(await last.getByTestId('message-body').locator('b').innerText()).toBe('power supply');
    await screenshot(page, 'integration-agent-answer');
    await context.close();

    // The creator's e-mail of the answer is in the outbox, with the link to the ticket (the ticket's
    // confirmation, sent when it was opened, has the link too).
    const mail = await waitForMail('demo@sportello.example', 'power supply');
    expect(mail).toContain(`/demo/11/tickets/${ticket.id}`);
    expect(mail).toContain('Marco Ferri');

    // The back office hears its own answer in the feed, marked with its key.
    const feed = await fetch(`${baseUrl}/api/integration/v1/events?limit=1000`, {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    const events = ((await feed.json()) as { events: { type: string; source: { type: string } }[] }).events;
    const mine = events.filter((e) => e.type === 'agent.comment_added');
    expect(mine.at(-1)!.source.type).toBe('api_key');
  });
});
