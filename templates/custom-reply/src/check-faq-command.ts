import { loadFaq } from './faq.js';

// `npm run check-faq [path]`: checks the FAQ file without starting the endpoint.
const path = process.argv[2] ?? process.env.FAQ_PATH ?? './faq.json';
try {
  const faq = loadFaq(path);
  console.log(`${path}: ${faq.entries.length} entries, all valid`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
