/**
 * The referential checks of an import document. They read the raw document tolerantly (the shape may be
 * wrong elsewhere: those problems come from zod), so one answer lists every problem at once.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { z } from 'zod';
import type { ImportProblem } from '@sportello/contracts';

/** What the database already holds for a portal: an import is a merge, so references may point there. */
export interface KnownPortal {
  ticketTypes: Set<number>;
  statusSteps: Map<number, { isDefault: boolean; isClosing: boolean }>;
  groups: Set<number>;
  agents: Set<number>;
  tags: Set<number>;
  /** contact ext id → company ext id */
  contacts: Map<number, number>;
  /** wiki element ext id → company ext id */
  wikiElements: Map<number, number>;
  /** ticket ext id → company ext id */
  tickets: Map<number, number>;
}

export const emptyKnownPortal = (): KnownPortal => ({
  ticketTypes: new Set(),
  statusSteps: new Map(),
  groups: new Set(),
  agents: new Set(),
  tags: new Set(),
  contacts: new Map(),
  wikiElements: new Map(),
  tickets: new Map(),
});

/** `['portals', 0, 'companies', 1, 'tickets', 3, 'taskTypeId']` → `portals[0].companies[1].tickets[3].taskTypeId` */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out || '(document)';
}

export function shapeProblems(error: z.ZodError): ImportProblem[] {
  const out: ImportProblem[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ path: formatPath([...issue.path, key]), message: `unknown field "${key}"` });
      }
    } else {
      out.push({ path: formatPath(issue.path), message: issue.message });
    }
  }
  return out;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The object items of a list with their index; anything else is zod's problem. */
const items = (v: unknown): [Obj, number][] =>
  Array.isArray(v) ? v.flatMap((x, i): [Obj, number][] => (isObj(x) ? [[x, i]] : [])) : [];
const intOf = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) ? v : undefined;
const strOf = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * Ticket ids the document points to from elsewhere than the ticket itself (activity reports, task
 * links): only those are looked up among the tickets stored, not a portal's million tickets.
 */
export function referencedTicketIds(raw: unknown): number[] {
  const ids = new Set<number>();
  if (!isObj(raw)) return [];
  for (const [p] of items(raw.portals)) {
    for (const [c] of items(p.companies))
      for (const [r] of items(c.activityReports)) {
        const id = intOf(r.taskId);
        if (id !== undefined) ids.add(id);
      }
    for (const [l] of items(p.taskLinks)) {
      const id = intOf(l.ticketId);
      if (id !== undefined) ids.add(id);
    }
  }
  return [...ids];
}

/** Portal keys the document names (its portals and its users' contacts), to load what the database knows. */
export function referencedPortalKeys(raw: unknown): string[] {
  const keys = new Set<string>();
  if (!isObj(raw)) return [];
  for (const [p] of items(raw.portals)) {
    const k = strOf(p.webPortalKey);
    if (k) keys.add(k);
  }
  for (const [u] of items(raw.users)) {
    for (const [c] of items(u.contacts)) {
      const k = strOf(c.webPortalKey);
      if (k) keys.add(k);
    }
  }
  return [...keys];
}

export interface CheckOptions {
  baseDir?: string | undefined;
}

/**
 * The referential problems of a document. A first pass notes ids without the paths where they were seen
 * (a million tickets' paths are hundreds of MB); only if it meets a second use of an id does a second
 * pass name both places.
 */
export function referenceProblems(
  raw: unknown,
  known: Map<string, KnownPortal>,
  opts: CheckOptions,
): ImportProblem[] {
  const first = checkReferences(raw, known, opts, false);
  return first.duplicates ? checkReferences(raw, known, opts, true).problems : first.problems;
}

function checkReferences(
  raw: unknown,
  known: Map<string, KnownPortal>,
  opts: CheckOptions,
  withPaths: boolean,
): { problems: ImportProblem[]; duplicates: boolean } {
  const problems: ImportProblem[] = [];
  let duplicates = false;
  const problem = (path: string, message: string) => problems.push({ path, message });
  if (!isObj(raw)) return { problems, duplicates };

  const fileRef = (v: unknown, path: string) => {
    if (!isObj(v) || typeof v.path !== 'string') return;
    if (opts.baseDir === undefined) {
      problem(`${path}.path`, 'a file path is allowed only from the command line; send base64');
      return;
    }
    const full = resolve(opts.baseDir, v.path);
    let isFile = false;
    try {
      isFile = statSync(full).isFile();
    } catch {
      // reported below
    }
    if (!isFile) problem(`${path}.path`, `file not found: ${full}`);
  };

  /**
   * Reports a second use of an id in a list (or in a set of lists sharing one key space). `path` is
   * built only when the pass keeps paths.
   */
  const uniqueIds = (
    seen: Map<number | string, string>,
    id: number | string | undefined,
    path: () => string,
  ) => {
    if (id === undefined) return;
    const first = seen.get(id);
    if (first === undefined) seen.set(id, withPaths ? path() : '');
    else if (withPaths) problem(path(), `duplicate id ${JSON.stringify(id)} (also at ${first})`);
    else duplicates = true;
  };

  // Portals in the document, merged over what the database holds, for the users' checks at the end.
  const merged = new Map<string, KnownPortal>(known);
  const portalKeys = new Map<string, string>();

  for (const [p, pi] of items(raw.portals)) {
    const pp = `portals[${pi}]`;
    const key = strOf(p.webPortalKey);
    if (key !== undefined) {
      const first = portalKeys.get(key);
      if (first !== undefined)
        problem(`${pp}.webPortalKey`, `duplicate webPortalKey "${key}" (also at ${first})`);
      else portalKeys.set(key, pp);
    }
    const base = (key !== undefined && known.get(key)) || emptyKnownPortal();
    const k: KnownPortal = {
      ticketTypes: new Set(base.ticketTypes),
      statusSteps: new Map(base.statusSteps),
      groups: new Set(base.groups),
      agents: new Set(base.agents),
      tags: new Set(base.tags),
      contacts: new Map(base.contacts),
      wikiElements: new Map(base.wikiElements),
      tickets: new Map(base.tickets),
    };
    if (key !== undefined) merged.set(key, k);

    fileRef(p.logo, `${pp}.logo`);
    const simple = (field: string, into: Set<number>) => {
      const seen = new Map<number, string>();
      for (const [x, i] of items(p[field])) {
        const id = intOf(x.id);
        uniqueIds(seen, id, () => `${pp}.${field}[${i}].id`);
        if (id !== undefined) into.add(id);
      }
    };
    simple('ticketTypes', k.ticketTypes);
    simple('groups', k.groups);
    simple('agents', k.agents);
    simple('tags', k.tags);
    simple('publicFiles', new Set());
    for (const [a, i] of items(p.agents)) fileRef(a.profileImage, `${pp}.agents[${i}].profileImage`);
    for (const [f, i] of items(p.publicFiles)) fileRef(f.file, `${pp}.publicFiles[${i}].file`);

    const stepSeen = new Map<number, string>();
    for (const [s, i] of items(p.statusSteps)) {
      const id = intOf(s.id);
      uniqueIds(stepSeen, id, () => `${pp}.statusSteps[${i}].id`);
      if (id !== undefined)
        k.statusSteps.set(id, { isDefault: s.isDefault === true, isClosing: s.isClosing === true });
    }
    // A list with two of a kind is refused by the schema (importStatusStepListSchema); here, the
    // steps merged with those already imported must hold exactly one of each.
    const steps = [...k.statusSteps.values()];
    const listed = [...items(p.statusSteps)].map(([s]) => s);
    const count = (of: typeof steps, flag: 'isDefault' | 'isClosing') =>
      of.filter((s) => s[flag] === true).length;
    for (const flag of ['isDefault', 'isClosing'] as const) {
      const n = count(steps, flag);
      if (n !== 1 && count(listed as typeof steps, flag) <= 1)
        problem(`${pp}.statusSteps`, `exactly one status step must have ${flag} (found ${n})`);
    }

    // First pass over companies: everything that can be referenced, so order inside the document is free.
    const companies = items(p.companies);
    const seen = {
      companies: new Map<number, string>(),
      contacts: new Map<number, string>(),
      folders: new Map<number, string>(),
      elements: new Map<number, string>(),
      tickets: new Map<number, string>(),
      comments: new Map<number, string>(),
      reports: new Map<number, string>(),
      activityContracts: new Map<number, string>(),
      serviceContracts: new Map<number, string>(),
      invoices: new Map<number, string>(),
      estimates: new Map<number, string>(),
      advances: new Map<number, string>(),
      documents: new Map<number, string>(),
    };
    for (const [c, ci] of companies) {
      const cp = `${pp}.companies[${ci}]`;
      const companyId = intOf(c.id);
      uniqueIds(seen.companies, companyId, () => `${cp}.id`);
      if (companyId === undefined) continue;
      for (const [ct, i] of items(c.contacts)) {
        const id = intOf(ct.contactId);
        uniqueIds(seen.contacts, id, () => `${cp}.contacts[${i}].contactId`);
        if (id !== undefined) k.contacts.set(id, companyId);
      }
      for (const [f, fi] of items(c.wikiFolders)) {
        uniqueIds(seen.folders, intOf(f.id), () => `${cp}.wikiFolders[${fi}].id`);
        for (const [e, ei] of items(f.elements)) {
          const id = intOf(e.id);
          uniqueIds(seen.elements, id, () => `${cp}.wikiFolders[${fi}].elements[${ei}].id`);
          if (id !== undefined) k.wikiElements.set(id, companyId);
        }
      }
      for (const [t, i] of items(c.tickets)) {
        const id = intOf(t.id);
        uniqueIds(seen.tickets, id, () => `${cp}.tickets[${i}].id`);
        if (id !== undefined) k.tickets.set(id, companyId);
      }
    }

    const inPortal = (set: Set<number>, v: unknown, path: string, what: string) => {
      const id = intOf(v);
      if (id !== undefined && !set.has(id)) problem(path, `unknown ${what} ${id}`);
    };
    /** A reference to a company-owned entity must stay inside that company. */
    const inCompany = (
      map: Map<number, number>,
      v: unknown,
      companyId: number,
      path: string,
      what: string,
    ) => {
      const id = intOf(v);
      if (id === undefined) return;
      const owner = map.get(id);
      if (owner === undefined) problem(path, `unknown ${what} ${id}`);
      else if (owner !== companyId)
        problem(path, `${what} ${id} belongs to company ${owner}, not ${companyId}`);
    };
    const activities = (list: unknown, path: string) => {
      const seenA = new Map<number, string>();
      for (const [a, i] of items(list)) {
        uniqueIds(seenA, intOf(a.id), () => `${path}[${i}].id`);
        fileRef(a.report, `${path}[${i}].report`);
      }
    };

    for (const [c, ci] of companies) {
      const cp = `${pp}.companies[${ci}]`;
      const companyId = intOf(c.id);
      if (companyId === undefined) continue;
      for (const [f, fi] of items(c.wikiFolders)) {
        for (const [e, ei] of items(f.elements)) {
          const ep = `${cp}.wikiFolders[${fi}].elements[${ei}]`;
          const seenP = new Map<number, string>();
          for (const [prop, i] of items(e.properties)) {
            uniqueIds(seenP, intOf(prop.id), () => `${ep}.properties[${i}].id`);
            fileRef(prop.file, `${ep}.properties[${i}].file`);
          }
        }
      }
      for (const [t, ti] of items(c.tickets)) {
        const tp = `${cp}.tickets[${ti}]`;
        inPortal(k.ticketTypes, t.taskTypeId, `${tp}.taskTypeId`, 'ticket type');
        const stepId = intOf(t.statusStepId);
        if (stepId !== undefined && !k.statusSteps.has(stepId))
          problem(`${tp}.statusStepId`, `unknown status step ${stepId}`);
        inCompany(k.contacts, t.creatorContactId, companyId, `${tp}.creatorContactId`, 'contact');
        inPortal(k.groups, t.assignedGroupId, `${tp}.assignedGroupId`, 'group');
        inPortal(k.agents, t.assignedUserId, `${tp}.assignedUserId`, 'agent');
        inCompany(k.wikiElements, t.wikiElementId, companyId, `${tp}.wikiElementId`, 'wiki element');
        for (const [cm, mi] of items(t.comments)) {
          const mp = `${tp}.comments[${mi}]`;
          uniqueIds(seen.comments, intOf(cm.id), () => `${mp}.id`);
          inCompany(k.contacts, cm.senderContactId, companyId, `${mp}.senderContactId`, 'contact');
          inPortal(k.agents, cm.senderAgentId, `${mp}.senderAgentId`, 'agent');
          const seenAtt = new Map<number, string>();
          for (const [a, ai] of items(cm.attachments)) {
            uniqueIds(seenAtt, intOf(a.id), () => `${mp}.attachments[${ai}].id`);
            fileRef(a.file, `${mp}.attachments[${ai}].file`);
          }
        }
      }
      for (const [r, i] of items(c.activityReports)) {
        const rp = `${cp}.activityReports[${i}]`;
        uniqueIds(seen.reports, intOf(r.id), () => `${rp}.id`);
        inCompany(k.tickets, r.taskId, companyId, `${rp}.taskId`, 'ticket');
        fileRef(r.document, `${rp}.document`);
      }
      for (const [ac, i] of items(c.activityContracts)) {
        const ap = `${cp}.activityContracts[${i}]`;
        uniqueIds(seen.activityContracts, intOf(ac.id), () => `${ap}.id`);
        activities(ac.activities, `${ap}.activities`);
      }
      for (const [sc, i] of items(c.serviceContracts)) {
        const sp = `${cp}.serviceContracts[${i}]`;
        uniqueIds(seen.serviceContracts, intOf(sc.id), () => `${sp}.id`);
        if (Array.isArray(sc.tagIds))
          sc.tagIds.forEach((id, j) => inPortal(k.tags, id, `${sp}.tagIds[${j}]`, 'tag'));
        if (Array.isArray(sc.wikiElementIds))
          sc.wikiElementIds.forEach((id, j) =>
            inCompany(k.wikiElements, id, companyId, `${sp}.wikiElementIds[${j}]`, 'wiki element'),
          );
        const seenD = new Map<number, string>();
        for (const [d, di] of items(sc.documents)) {
          uniqueIds(seenD, intOf(d.id), () => `${sp}.documents[${di}].id`);
          fileRef(d.file, `${sp}.documents[${di}].file`);
        }
        const seenPk = new Map<number, string>();
        for (const [pk, pi2] of items(sc.packages)) {
          uniqueIds(seenPk, intOf(pk.id), () => `${sp}.packages[${pi2}].id`);
          activities(pk.activities, `${sp}.packages[${pi2}].activities`);
        }
      }
      for (const [inv, i] of items(c.invoices)) {
        uniqueIds(seen.invoices, intOf(inv.id), () => `${cp}.invoices[${i}].id`);
        fileRef(inv.document, `${cp}.invoices[${i}].document`);
      }
      for (const [e, i] of items(c.estimates)) {
        uniqueIds(seen.estimates, intOf(e.id), () => `${cp}.estimates[${i}].id`);
        fileRef(e.document, `${cp}.estimates[${i}].document`);
      }
      for (const [a, i] of items(c.recurringAdvances)) {
        uniqueIds(seen.advances, intOf(a.id), () => `${cp}.recurringAdvances[${i}].id`);
      }
      for (const [d, i] of items(c.documents)) {
        const dp = `${cp}.documents[${i}]`;
        uniqueIds(seen.documents, intOf(d.id), () => `${dp}.id`);
        inCompany(k.contacts, d.contactId, companyId, `${dp}.contactId`, 'contact');
        fileRef(d.file, `${dp}.file`);
      }
    }

    const seenKeys = new Map<string, string>();
    for (const [s, i] of items(p.signatureRequests)) {
      const sp = `${pp}.signatureRequests[${i}]`;
      uniqueIds(seenKeys, strOf(s.documentKey), () => `${sp}.documentKey`);
      const id = intOf(s.contactId);
      if (id !== undefined && !k.contacts.has(id)) problem(`${sp}.contactId`, `unknown contact ${id}`);
      fileRef(s.file, `${sp}.file`);
    }
    const seenLinks = new Map<string, string>();
    for (const [l, i] of items(p.appointmentLinks)) {
      const lp = `${pp}.appointmentLinks[${i}]`;
      uniqueIds(seenLinks, strOf(l.eventKey), () => `${lp}.eventKey`);
      inPortal(k.agents, l.agentId, `${lp}.agentId`, 'agent');
    }
    const seenTasks = new Map<string, string>();
    for (const [l, i] of items(p.taskLinks)) {
      const lp = `${pp}.taskLinks[${i}]`;
      uniqueIds(seenTasks, strOf(l.eventKey), () => `${lp}.eventKey`);
      const id = intOf(l.ticketId);
      if (id !== undefined && !k.tickets.has(id)) problem(`${lp}.ticketId`, `unknown ticket ${id}`);
    }
  }

  const userNames = new Map<string, string>();
  for (const [u, ui] of items(raw.users)) {
    const up = `users[${ui}]`;
    const name = strOf(u.userName)?.trim().toLowerCase();
    if (name !== undefined) {
      const first = userNames.get(name);
      if (first !== undefined) problem(`${up}.userName`, `duplicate userName "${name}" (also at ${first})`);
      else userNames.set(name, up);
    }
    for (const [c, ci] of items(u.contacts)) {
      const cp = `${up}.contacts[${ci}]`;
      const key = strOf(c.webPortalKey);
      if (key === undefined) continue;
      const portal = merged.get(key);
      if (!portal) {
        problem(`${cp}.webPortalKey`, `unknown portal "${key}"`);
        continue;
      }
      const id = intOf(c.contactId);
      if (id !== undefined && !portal.contacts.has(id))
        problem(`${cp}.contactId`, `unknown contact ${id} in portal "${key}"`);
    }
  }
  return { problems, duplicates };
}
