import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const server = spawn(process.execPath, ['--import', 'tsx', 'bench/emulator-server.ts'], { stdio: ['pipe', 'pipe', 'inherit'] });
const [line] = (await once(createInterface({ input: server.stdout }), 'line')) as [string];
const { url, adminKey } = JSON.parse(line);
const cpuMs = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const MIX = (process.env.ROUTES?.split(',')) ?? ['/v1/status','/v1/conversations?limit=20','/v1/contacts?limit=50','/v1/tickets?limit=20&status=open','/v1/messages?limit=20','/v1/analytics/summary','/v1/developer/limits','/v1/templates?limit=20','/v1/nothing'];
import { SCOPES } from '../src/api/scopes.js';
const kr = await fetch(`${url}/v1/keys`, { method: 'POST', headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ label: 'b', scopes: [...SCOPES], kind: 'live' }) });
const h = { authorization: `Bearer ${process.env.ADMIN ? adminKey : ((await kr.json()) as { key: string }).key}` };
const N = Number(process.env.N ?? 1000);
for (let round = 0; round < 2; round++) for (const path of MIX) {
  const c0 = cpuMs(server.pid!);
  for (let i = 0; i < (round ? N : 200); i++) { const r = await fetch(url + path, { headers: h }); await r.arrayBuffer(); }
  if (round) console.log(path.padEnd(36), 'server cpu µs/req', Math.round((cpuMs(server.pid!) - c0) * 1000 / N));
}
server.stdin.end(); await once(server, 'exit');
