import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isStateDirectory, readStateDirectory, writeStateDirectory } from '../../src/cli/emulator/state-directory.js';
import { sideDirectory } from '../../src/cli/emulator/state-directory-sides.js';
import { as, cleanup, emulator, frozen } from '../emulator/platform-harness.js';
import { SEED_IDS } from '../../src/emulator/seed.js';
import { tempDir } from './helpers.js';

// The directory form of a saved state (docs/emulator.md, "Saving and loading state"), on a real in-process
// emulator: the rule for file or directory, stable bytes, the round trip, and layouts it refuses.

const dir = tempDir('state-directory');
afterEach(cleanup);
afterAll(() => dir.remove());

/** Every file of a state directory by relative path, with its text. */
function filesOf(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(root, name);
    if (name.endsWith('.json')) out[name] = readFileSync(path, 'utf8');
  }
  return out;
}

describe('the state directory', () => {
  it('decides file or directory by one rule', () => {
    mkdirSync(dir.file('existing.json'));
    writeFileSync(dir.file('a-file'), '{}');
    expect(isStateDirectory(dir.file('existing.json'))).toBe(true);
    expect(isStateDirectory(dir.file('a-file'))).toBe(false);
    expect(isStateDirectory(dir.file('new'))).toBe(true);
    expect(isStateDirectory(`${dir.file('new.json')}/`)).toBe(true);
    expect(isStateDirectory(dir.file('new.json'))).toBe(false);
    expect(isStateDirectory(dir.file('NEW.JSON'))).toBe(false);
  });

  it('writes the same bytes for the same state, diffs only what changed, and reads back the document', async () => {
    const e = await emulator({ now: frozen });
    const target = dir.file('fixture');
    const before = e.state.export();
    writeStateDirectory(target, before);
    const first = filesOf(target);
    writeStateDirectory(`${target}/`, e.state.export());
    expect(filesOf(target)).toEqual(first);
    expect(readdirSync(dir.path).filter((name) => name.startsWith('.'))).toEqual([]);
    expect(readStateDirectory(target)).toEqual(before);

    await as(e)
      .post('/v1/journeys')
      .send({ name: 'J', trigger_name: 'j', steps: [{ template_id: SEED_IDS.templates.approved, delay_seconds: 0 }] })
      .expect(201);
    writeStateDirectory(target, e.state.export());
    const now = filesOf(target);
    // A first journey adds its collection (listed in state.json: an empty collection has no file) and counts a
    // request; nothing else changes (the clock is frozen).
    expect(Object.keys(now).filter((name) => now[name] !== first[name])).toEqual([
      'collections/journeys.json',
      'request_counts.json',
      'state.json',
    ]);
    expect(JSON.parse(now['state.json']!)).toEqual({
      ...JSON.parse(first['state.json']!),
      files: expect.arrayContaining(['collections/journeys.json']),
    });

    // What was written imports through the same check as PUT /_emulator/state.
    const fresh = await emulator({ now: frozen });
    await fresh.state.import(readStateDirectory(target));
    expect(fresh.state.export().collections.journeys).toEqual(e.state.export().collections.journeys);
  });

  it('refuses a manifest naming a file outside its layout, and a directory it did not write', async () => {
    const e = await emulator({ now: frozen });
    const target = dir.file('layout');
    writeStateDirectory(target, e.state.export());
    const manifest = JSON.parse(readFileSync(join(target, 'state.json'), 'utf8')) as { files: string[] };
    writeFileSync(join(target, 'state.json'), JSON.stringify({ ...manifest, files: [...manifest.files, '../a-file'] }));
    expect(() => readStateDirectory(target)).toThrow(/state\.json: files\.\d+: expected collections\/<name>\.json/);
    writeFileSync(join(target, 'state.json'), JSON.stringify({ ...manifest, files: manifest.files.slice(1) }));
    expect(() => readStateDirectory(target)).toThrow(/state\.json: files: api_key_hashes\.json is not listed/);

    const mine = dir.file('mine');
    mkdirSync(mine);
    writeFileSync(join(mine, 'notes.txt'), 'mine');
    expect(() => writeStateDirectory(mine, e.state.export())).toThrow(/holds files and no state\.json/);
    expect(existsSync(join(mine, 'notes.txt'))).toBe(true);
  });

  describe('after a write killed part way', () => {
    /** The pid of a process that has exited: a writer killed before it could tidy up. */
    const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;
    const hidden = () => readdirSync(dir.path).filter((name) => name.startsWith('.'));

    it('between its two renames: the next import puts the new state in place, else the previous one', async () => {
      const e = await emulator({ now: frozen });
      const before = e.state.export();
      await as(e)
        .post('/v1/journeys')
        .send({ name: 'J', trigger_name: 'j', steps: [{ template_id: SEED_IDS.templates.approved, delay_seconds: 0 }] })
        .expect(201);
      const after = e.state.export();

      // The kill came after the new state was complete (its manifest is written last): the new one wins.
      const target = dir.file('killed-between');
      const pid = deadPid();
      writeStateDirectory(sideDirectory(target, pid, 'old'), before);
      writeStateDirectory(sideDirectory(target, pid, 'tmp'), after);
      expect(readStateDirectory(target)).toEqual(after);
      expect(hidden()).toEqual([]);

      // A new state without its manifest was cut short while writing: the previous one comes back.
      const second = dir.file('killed-writing');
      const other = deadPid();
      writeStateDirectory(sideDirectory(second, other, 'old'), before);
      writeStateDirectory(sideDirectory(second, other, 'tmp'), after);
      rmSync(join(sideDirectory(second, other, 'tmp'), 'state.json'));
      expect(readStateDirectory(second)).toEqual(before);
      expect(hidden()).toEqual([]);
    });

    it("tidies a dead writer's leftovers on the next write, and leaves a running writer's alone", async () => {
      const e = await emulator({ now: frozen });
      const target = dir.file('leftovers');
      writeStateDirectory(target, e.state.export());
      const dead = sideDirectory(target, deadPid(), 'tmp');
      renameSync(target, dead);
      writeStateDirectory(target, e.state.export());
      writeStateDirectory(dead, e.state.export());
      const running = sideDirectory(target, process.ppid, 'tmp');
      mkdirSync(running);
      writeStateDirectory(target, e.state.export());
      expect(hidden()).toEqual([running.split('/').pop()]);
      expect(readStateDirectory(target)).toEqual(e.state.export());
      rmSync(running, { recursive: true });
    });
  });
});
