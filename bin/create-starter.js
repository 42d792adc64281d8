#!/usr/bin/env node
import '../dist/cli/create-starter/index.js';
