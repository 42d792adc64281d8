export { serveConsole } from './serve-console.js';
