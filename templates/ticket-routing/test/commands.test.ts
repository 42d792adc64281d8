import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RULES_PATH } from './emulator-harness.js';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('npm start', () => {
  it('stops at start on a bad rule, naming it, before touching the service', () => {
    const dir = mkdtempSync(join(tmpdir(), 'routing-start-'));
    try {
      const rules = JSON.parse(readFileSync(RULES_PATH, 'utf8')) as { rules: { set_priority?: string }[] };
      rules.rules[1].set_priority = 'critical';
      writeFileSync(join(dir, 'rules.json'), JSON.stringify(rules));
      const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: PROJECT_ROOT,
        // Port 9 (discard) is never the service: reaching it would fail differently.
        env: {
          ...process.env,
          CONVO_KIT_BASE_URL: 'http://127.0.0.1:9',
          CONVO_KIT_API_KEY: 'svc_live_unused',
          CONVO_KIT_WEBHOOK_SECRET: 'whsec_unused',
          ROUTING_RULES: join(dir, 'rules.json'),
          DELIVERIES_DB_PATH: join(dir, 'deliveries.db'),
        },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('rule 2 ("refunds and cancellations"): set_priority:');
      // The message is for the person editing the rules: no stack trace around it.
      expect(result.stderr).not.toMatch(/\n\s+at |RoutingConfigError/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
