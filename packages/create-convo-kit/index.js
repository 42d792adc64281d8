#!/usr/bin/env node
// `npm create convo-kit [dir] [-- --template <name>]`: runs `create-starter` from the convo-kit of this same
// version, with the prompt library its questions use. The scaffolder and its templates live in one place,
// the kit (where `npx --package convo-kit create-starter` runs them too), and each release makes starters
// that depend on itself (docs/packages.md).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The range convo-kit's peerDependencies name for @inquirer/prompts (a test keeps the two equal). */
export const PROMPTS = '@inquirer/prompts@^7.10.1';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const args = ['exec', '--yes', `--package=convo-kit@${version}`, `--package=${PROMPTS}`, '--', 'create-starter'];
const windows = process.platform === 'win32';

const child = spawn(windows ? 'npm.cmd' : 'npm', [...args, ...process.argv.slice(2)], {
  stdio: 'inherit',
  shell: windows, // npm is a .cmd script there, which Node starts only through a shell
});
child.once('error', (error) => {
  console.error(`create-convo-kit: could not run npm (${error.message})`);
  process.exitCode = 1;
});
child.once('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 130 : 1);
});
