import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { baseUrl, launch } from './browser';
import { DEMO_ADMIN, DEMO_AGENT, login, pageWith, post, staffLogin } from './kit';

// The setup screen itself is walked by admin-settings.e2e.ts; this journey follows a change to the
// screens that use it: the agent's step picker and the customer's new-ticket form.
describe('ticket setup, seen where it is used', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("a step and a type an admin adds are offered by the agent's step picker and the customer's new ticket", async () => {
    const stamp = Date.now();
    const admin = await staffLogin(DEMO_ADMIN);
    const root = '/api/staff/portals/demo/admin/ticket-setup';
    const step = await post<{ name: string }>(`${root}/steps`, admin, {
      name: `Parts ${stamp}`,
      taskStatus: 1,
    });
    const type = await post<{ name: string }>(`${root}/types`, admin, { name: `Warranty ${stamp}` });

    const customerToken = await login('demo');
    const ticket = await post<{ id: number }>('/api/demo/11/tickets', customerToken, {
      title: `Setup journey ${stamp}`,
      taskTypeId: 1,
      description: '<p>Which step?</p>',
      attachments: [],
    });
    const agent = await pageWith(browser, { staffToken: await staffLogin(DEMO_AGENT) });
    await agent.goto(`${baseUrl}/demo/staff/tickets/${ticket.id}`);
    await agent.getByTestId('side-step').click();
    await agent.getByRole('option', { name: step.name }).waitFor();

    const customer = await pageWith(browser, { contactToken: customerToken });
    await customer.goto(`${baseUrl}/demo/11/tickets/new`);
    await customer.getByRole('combobox', { name: /^Type/ }).click();
    await customer.getByRole('option', { name: type.name }).waitFor();
  });
});
