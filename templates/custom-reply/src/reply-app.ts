import { createReplyEndpoint, type ReplyEndpoint, serveReply } from 'convo-kit/reply';
import type { AppConfig } from './app-config.js';
import { composeReply } from './compose-reply.js';
import { loadFaq, type Faq } from './faq.js';

export interface ReplyApp {
  /** The base URL, e.g. http://127.0.0.1:3000. */
  url: string;
  /** The provider's `config.url`. */
  replyUrl: string;
  endpoint: ReplyEndpoint;
  faq: Faq;
  close(): Promise<void>;
}

/**
 * Starts the endpoint: POST /reply answers the service's signed reply requests from the FAQ, and
 * GET /health says it is up and how many requests it answered or handed off. The FAQ is checked first; a bad one stops the start naming the entry.
 */
export async function startReplyApp(config: AppConfig, host = '127.0.0.1'): Promise<ReplyApp> {
  const faq = loadFaq(config.faqPath);
  const counts = { answered: 0, handed_off: 0 };
  const endpoint = createReplyEndpoint({
    secret: config.replySecret,
    timeoutMs: config.timeoutMs,
    reply: (request, { log }) => {
      const reply = composeReply(request, faq);
      counts[reply === null ? 'handed_off' : 'answered'] += 1;
      log.info(
        { task: request.task, answered: reply !== null },
        reply ? 'answered from the FAQ' : 'no answer: handing off',
      );
      return reply;
    },
  });
  // POST /reply goes to the endpoint (`serveReply`); `/` (the URL `npm run dev` prints) says what is here, as
  // /health does with the counts.
  const served = await serveReply(endpoint, {
    port: config.port,
    host,
    routes: (req, res) => {
      req.resume();
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const [status, body] =
        req.method === 'GET' && (path === '/health' || path === '/')
          ? [200, { ok: true, reply: 'POST /reply', faq_entries: faq.entries.length, ...counts }]
          : [404, { error: { code: 'NOT_FOUND', message: 'The reply endpoint is POST /reply' } }];
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    },
  });
  return { url: served.url, replyUrl: served.replyUrl, endpoint, faq, close: () => served.close() };
}
