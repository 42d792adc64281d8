import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceStatus } from '../../src/api/schemas/insights.js';
import { ERROR_RATE_MIN_REQUESTS } from '../../src/emulator/state/request-stats.js';
import { as, cleanup, emulator } from './platform-harness.js';

afterEach(cleanup);

describe('GET /v1/status', () => {
  it('answers 200 without a key, with error_rate null until there is enough history', async () => {
    const e = await emulator();
    const res = await request(e.app).get('/v1/status');
    expect(res.status).toBe(200);
    expect(ServiceStatus.parse(res.body)).toMatchObject({
      status: 'ok',
      dependencies: { database: 'ok', cache: 'ok' },
      error_rate: null,
    });
  });

  it('reports the share of 5xx answers once enough requests were seen', async () => {
    const e = await emulator();
    for (let i = 0; i < ERROR_RATE_MIN_REQUESTS; i++) await as(e).get('/v1/tickets?limit=1');
    const res = await request(e.app).get('/v1/status');
    expect(res.body.error_rate).toBe(0);
  });

  it('answers 503 naming the database when it is unavailable', async () => {
    const e = await emulator();
    e.db.close();
    const res = await request(e.app).get('/v1/status');
    expect(res.status).toBe(503);
    expect(ServiceStatus.parse(res.body)).toMatchObject({
      status: 'degraded',
      dependencies: { database: 'degraded', cache: 'ok' },
      error_rate: null,
    });
    expect(res.headers['x-request-id']).toMatch(/^req_/);
  });

  it('answers the other routes with a 500 envelope, not a crash, when the database is gone', async () => {
    const e = await emulator();
    e.db.close();
    const res = await as(e).get('/v1/tickets');
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('INTERNAL_ERROR');
  });
});

describe('request counts', () => {
  const counted = (e: Awaited<ReturnType<typeof emulator>>) =>
    (e.db.prepare('SELECT coalesce(sum(requests), 0) AS n FROM request_counts').get() as { n: number }).n;

  it('counts every answer at once for its readers, and writes the counts to the table within seconds', async () => {
    const e = await emulator();
    for (let i = 0; i < 3; i++) await as(e).get('/v1/tickets?limit=1');
    const usage = await as(e).get('/v1/usage');
    expect(usage.body.requests).toBe(4);
    await expect.poll(() => counted(e), { timeout: 10_000 }).toBe(4);
  });

  it('puts the counts not yet written into an export', async () => {
    const e = await emulator();
    for (let i = 0; i < 3; i++) await as(e).get('/v1/tickets?limit=1');
    const counts = e.state.export().request_counts;
    expect(counts.reduce((sum, row) => sum + row.requests, 0)).toBe(3);
  });
});
