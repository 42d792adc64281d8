#!/usr/bin/env node
// Built by `npm run build` (the prepare script), so an installed package runs compiled JavaScript.
import '../dist/cli/convo-kit.js';
