export { CONSOLE_ASSETS } from './console-page.js';
export { serveConsole, serveConsoleModule } from './serve-console.js';
