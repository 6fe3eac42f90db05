/**
 * The soak client (its own process, so it does not share the server's event loop): N connections for
 * D seconds of mixed traffic on the known contact: 40 % ticket list, 30 % ticket detail, 20 % new comment,
 * 10 % upload. Prints one JSON line: counts, errors (any non-2xx or network error) and the acknowledged
 * writes (comment texts, uploaded file ids), which the caller then looks up in the database. A 503 with
 * Retry-After (the server shedding load) is no error: the connection waits as asked, and it is counted
 * apart (`shed`).
 *
 *   tsx bench/lib/soak-client.ts <baseUrl> <token> <company> <contactId> <connections> <seconds> <label>
 */
export {};

const [baseUrl, token, company, contactId, connArg, secArg, label] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
const connections = Number(connArg);
const seconds = Number(secArg);

const auth = { authorization: `Bearer ${token}` };
const base = `${baseUrl}/api/${company}/${contactId}`;
const counts = { list: 0, detail: 0, comment: 0, upload: 0 };
const errors: string[] = [];
let errorCount = 0;
let shed = 0;
const ackedMessages: string[] = [];
const ackedFiles: number[] = [];
const latencies: number[] = [];
let seq = 0;

async function once(): Promise<void> {
  const r = Math.random();
  const ticket = 1 + Math.floor(Math.random() * 200);
  let res: Response;
  const started = performance.now();
  if (r < 0.4) {
    res = await fetch(`${base}/tickets`, { headers: auth });
    counts.list++;
  } else if (r < 0.7) {
    res = await fetch(`${base}/tickets/${ticket}`, { headers: auth });
    counts.detail++;
  } else if (r < 0.9) {
    const message = `${label}-${seq++}`;
    res = await fetch(`${base}/comments`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        taskId: ticket,
        message: `<p>${message}</p>`,
        commentType: 0,
        ticketEmailReply_Recipient: '',
        ticketEmailReply_CCList: '',
        attachments: [],
      }),
    });
    counts.comment++;
    if (res.ok) ackedMessages.push(`<p>${message}</p>`);
  } else {
    const form = new FormData();
    const bytes = Buffer.from(`${label} upload ${seq++} ${Math.random()}\n`.repeat(64));
    form.append('file', new Blob([bytes], { type: 'text/plain' }), `soak-${seq}.txt`);
    res = await fetch(`${base}/documents/upload`, { method: 'POST', headers: auth, body: form });
    counts.upload++;
    if (res.ok) ackedFiles.push(((await res.clone().json()) as { id: number }).id);
  }
  const body = await res.text();
  latencies.push(performance.now() - started);
  const retryAfter = Number(res.headers.get('retry-after'));
  if (res.status === 503 && retryAfter > 0) {
    shed++;
    await new Promise((r) => setTimeout(r, retryAfter * 1000));
  } else if (!res.ok) {
    errorCount++;
    if (errors.length < 10) errors.push(`${res.status} ${body.slice(0, 200)}`);
  }
}

const deadline = Date.now() + seconds * 1000;
async function worker(): Promise<void> {
  while (Date.now() < deadline) {
    try {
      await once();
    } catch (e) {
      errorCount++;
      if (errors.length < 10) errors.push(String(e));
    }
  }
}
const started = performance.now();
await Promise.all(Array.from({ length: connections }, worker));
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0);
console.log(
  JSON.stringify({
    seconds: Math.round(elapsed),
    requests: latencies.length,
    counts,
    errorCount,
    shed,
    errors,
    p50: pct(0.5),
    p99: pct(0.99),
    ackedMessages,
    ackedFiles,
  }),
);
