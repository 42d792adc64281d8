#!/usr/bin/env node
// Built by `npm run build` (run by prepack, before npm pack or publish), so an installed package runs
// compiled JavaScript and nothing is built on a user's machine.
import '../dist/cli/convo-kit.js';
