// One server of the benchmark, in its own process so the load generator never shares its event loop.
// argv: <kind> <db path> <durability>; tells the parent its port over IPC, and its peak RSS when asked.
import express from 'express';
import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createReceiver } from '../src/receiver/index.js';
import type { Durability } from '../src/store/index.js';
import { BENCH_SECRET, HANDLER_SLEEP_MS, type ServerKind } from './bench-config.js';

const [kind, dbPath, durability] = process.argv.slice(2) as [ServerKind, string, Durability];

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => resolve(Buffer.concat(chunks)))
      .on('error', reject);
  });
}

function receiver() {
  const r = createReceiver({ secret: BENCH_SECRET, dbPath, durability, logger: pino({ level: 'warn' }) });
  r.on('*', () => new Promise((resolve) => setTimeout(resolve, HANDLER_SLEEP_MS)));
  void r.start();
  return r;
}

const listeners: Record<ServerKind, () => RequestListener> = {
  'express + receiver': () => express().post('/webhooks', receiver().middleware()),
  'bare express': () =>
    express().post('/webhooks', async (req, res) => {
      await readBody(req);
      res.status(200).json({ received: true });
    }),
  'node:http + receiver': () => receiver().listener,
  'bare node:http': () => async (req, res) => {
    await readBody(req);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  },
};

const server = createServer(listeners[kind]());
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));

// CPU time per answered request does not depend on what else the machine runs, unlike req/s.
let requests = 0;
let cpuStart = process.cpuUsage();
server.on('request', () => requests++);
process.on('message', (message) => {
  if (message === 'reset') {
    requests = 0;
    cpuStart = process.cpuUsage();
    process.send!('ok');
  }
  if (message === 'stats') {
    const cpu = process.cpuUsage(cpuStart);
    process.send!({
      cpuMicrosPerRequest: (cpu.user + cpu.system) / Math.max(1, requests),
      maxRssMiB: process.resourceUsage().maxRSS / 1024,
    });
  }
});
