import { loadRoutingConfig, RoutingConfigError } from './routing-config.js';

// `npm run check-rules [file]`: validates the rules without starting anything (for CI and editors).
const path = process.argv[2] ?? process.env.ROUTING_RULES ?? './routing-rules.json';
try {
  const config = loadRoutingConfig(path);
  console.log(`${path}: ${config.rules.length} rules, ${Object.keys(config.assignees).length} assignees, all valid`);
} catch (error) {
  if (!(error instanceof RoutingConfigError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
