import { describe, expect, it } from 'vitest';
import { afterStaffLogin, staffPath, staffTicketPath } from './staff-paths';

describe('desk paths', () => {
  it('are under the portal', () => {
    expect(staffPath('demo')).toBe('/demo/staff');
    expect(staffPath('a b', 'login')).toBe('/a%20b/staff/login');
    expect(staffTicketPath('demo', 12)).toBe('/demo/staff/tickets/12');
  });

  it('return after sign-in only to a page of the same desk', () => {
    expect(afterStaffLogin('/demo/staff/tickets/4?x=1', 'demo')).toBe('/demo/staff/tickets/4?x=1');
    expect(afterStaffLogin('/demo/staff?view=mine', 'demo')).toBe('/demo/staff?view=mine');
    expect(afterStaffLogin('/other/staff/tickets/4', 'demo')).toBe('/demo/staff');
    expect(afterStaffLogin('/demo/11/tickets', 'demo')).toBe('/demo/staff');
    expect(afterStaffLogin('//evil.example/demo/staff', 'demo')).toBe('/demo/staff');
    expect(afterStaffLogin('/demo/staff/login', 'demo')).toBe('/demo/staff');
    expect(afterStaffLogin('/demo/staffing', 'demo')).toBe('/demo/staff');
    expect(afterStaffLogin(undefined, 'demo')).toBe('/demo/staff');
  });
});
