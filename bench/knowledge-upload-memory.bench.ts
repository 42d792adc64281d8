// The emulator's memory under hostile knowledge-file uploads (issue 25, point 5): CONCURRENT clients each
// upload one costly file at once (retrying on 503 as Retry-After says), a mix of a PDF whose stream inflates
// to 1 GiB, a DOCX and an XLSX that expand to about 20 MiB of XML each, 10 MiB of HTML nested 2 million deep,
// and 10 MiB of JSON. Prints each file's answer and the RSS of the emulator's process tree (its process and
// the child processes it parses files in, summed: what the emulator costs the machine), peak (sampled every
// 20 ms) and once idle again, and the same for its own process alone (peak also as its VmHWM). Target, for
// the tree: peak at most 400 MiB for 12 uploads, idle under 250 MiB. Not a test: memory depends on the
// machine and Node's version. The emulator runs from the build in dist/, as `convo-kit emulator` does (from
// TypeScript sources each parse process would also hold tsx's loader).
// Run: npm run bench:uploads (CONCURRENT=12 IDLE_SECONDS=20; MEMORY=1 prints the emulator's own heap and
// buffers beside its RSS).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { bulkyDocx, bulkyXlsx, pdfBomb } from '../test/support/knowledge-files.js';
import { processTree, statusKib } from '../test/support/process-tree.js';

const CONCURRENT = Number(process.env.CONCURRENT ?? 12);
const IDLE_SECONDS = Number(process.env.IDLE_SECONDS ?? 20);
const MIB = 1024 * 1024;
const TARGET = { peakMib: 400, idleMib: 250 };

const FILES: [name: string, make: () => Promise<Buffer>][] = [
  ['bomb.pdf', () => pdfBomb(1024 * MIB, ['Hello'])],
  ['bulky.docx', () => bulkyDocx(250_000, 'y'.repeat(40))],
  ['bulky.xlsx', () => bulkyXlsx(4_000, 100, 'x')],
  ['deep.html', async () => Buffer.from('<div>'.repeat(2 * MIB - 1) + 'x')],
  ['big.json', async () => Buffer.from(JSON.stringify(Array.from({ length: 400_000 }, (_, i) => ({ n: i, s: 'ab' }))))],
];

const files = await Promise.all(FILES.map(async ([name, make]) => ({ name, bytes: await make() })));
const load = () => loadavg().map((n) => Number(n.toFixed(2)));
const loadBefore = load();

const server = spawn(process.execPath, ['--import', 'tsx', 'bench/emulator-server.ts'], {
  env: { ...process.env, FROM_DIST: '1', ...(process.env.MEMORY ? { MEMORY_ON_SIGUSR2: '1' } : {}) },
  stdio: ['pipe', 'pipe', 'inherit'],
});
const [line] = (await once(createInterface({ input: server.stdout }), 'line')) as [string];
const { url, adminKey } = JSON.parse(line) as { url: string; adminKey: string };
const mib = (kib = 0) => Math.round(kib / 1024);
/**
 * RSS of the emulator's process, and of it and every process below it (its parse processes), summed. The sum
 * counts the pages of files the processes share (Node's own code, about 40 MiB) once per process: `tree_code_once`
 * counts them once (the largest RssFile, beside every process's RssAnon and RssShmem), what the tree costs the
 * machine if every process maps the same files.
 */
const rssMib = () => {
  const statuses = processTree(server.pid!).map(statusKib);
  const sum = (field: string) => statuses.reduce((total, status) => total + (status[field] ?? 0), 0);
  return {
    main: mib(statuses[0]?.VmRSS),
    tree: mib(sum('VmRSS')),
    tree_code_once: mib(sum('RssAnon') + sum('RssShmem') + Math.max(0, ...statuses.map((s) => s.RssFile ?? 0))),
  };
};

const headers = { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' };
const group = await fetch(`${url}/v1/channels/groups`, { method: 'POST', headers, body: '{"name":"Memory"}' });
const { group_id } = (await group.json()) as { group_id: string };
const startedMib = rssMib();
if (process.env.MEMORY) server.kill('SIGUSR2');

/** The peaks of each, sampled: `children` is the tree less the emulator's own process, at one moment. */
const peakSampled = { main: 0, children: 0, tree: 0, tree_code_once: 0 };
const sampler = setInterval(() => {
  const rss = rssMib();
  peakSampled.main = Math.max(peakSampled.main, rss.main);
  peakSampled.children = Math.max(peakSampled.children, rss.tree - rss.main);
  peakSampled.tree = Math.max(peakSampled.tree, rss.tree);
  peakSampled.tree_code_once = Math.max(peakSampled.tree_code_once, rss.tree_code_once);
}, 20);

/** Uploads one file until it gets an answer other than 503. */
async function upload(
  name: string,
  bytes: Buffer,
): Promise<{ name: string; status: number; code?: string; s: number; busy: number }> {
  const t = performance.now();
  let busy = 0;
  for (;;) {
    const form = new FormData();
    form.append('type', 'general');
    form.append('title', name);
    form.append('file', new File([new Uint8Array(bytes)], name));
    const res = await fetch(`${url}/v1/channels/groups/${group_id}/knowledge/files`, {
      method: 'POST',
      headers: { authorization: headers.authorization },
      body: form,
    });
    const body = (await res.json()) as { error?: { code: string; message: string } };
    if (res.status !== 503) {
      const s = Number(((performance.now() - t) / 1000).toFixed(1));
      return { name, status: res.status, code: body.error?.message.slice(0, 90), s, busy };
    }
    busy++;
    await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after') ?? 1) * 1000));
  }
}

// With MEMORY=1, the emulator's heap and buffers every half second of the uploads too, to see what its peak holds.
const memoryPrinter = process.env.MEMORY ? setInterval(() => server.kill('SIGUSR2'), 500) : undefined;
const t0 = performance.now();
const answers = await Promise.all(
  Array.from({ length: CONCURRENT }, (_, i) => upload(files[i % files.length]!.name, files[i % files.length]!.bytes)),
);
const allAnsweredS = Number(((performance.now() - t0) / 1000).toFixed(1));
clearInterval(memoryPrinter);
const statusAfter = (await fetch(`${url}/v1/status`)).status;
const idle: Record<string, ReturnType<typeof rssMib>> = {};
for (let s = 1; s <= IDLE_SECONDS; s++) {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  if ([1, 5, 10, 20, 30, 60].includes(s) || s === IDLE_SECONDS) idle[`after_${s}s`] = rssMib();
  if (process.env.MEMORY) server.kill('SIGUSR2');
}
clearInterval(sampler);
const mainHwmMib = mib(statusKib(server.pid!).VmHWM);
server.stdin.end();
await once(server, 'exit');

const idleMib = Object.values(idle).at(-1)!;
console.log(
  JSON.stringify(
    {
      concurrent: CONCURRENT,
      files: Object.fromEntries(files.map((f) => [f.name, `${(f.bytes.length / MIB).toFixed(2)} MiB`])),
      answers,
      all_answered_s: allAnsweredS,
      status_after: statusAfter,
      rss_mib: { before_uploads: startedMib, peak_sampled: peakSampled, main_peak_vmhwm: mainHwmMib, idle },
      targets_met: { peak: peakSampled.tree <= TARGET.peakMib, idle: idleMib.tree < TARGET.idleMib },
      load_average_1_5_15: { before: loadBefore, after: load() },
    },
    null,
    2,
  ),
);
