#!/usr/bin/env node
// The `create-starter` entry point: `bin/create-starter.js` imports the built copy of this file.
import { runCreateStarter } from './run-create-starter.js';

process.exitCode = await runCreateStarter(process.argv.slice(2));
