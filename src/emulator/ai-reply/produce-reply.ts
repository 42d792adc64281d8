import type Database from 'better-sqlite3';
import type { LookupFunction } from 'node:net';
import { resolveReplyProvider, type ResolvedReplyProvider } from '../domain/index.js';
import { unverifiedClaim } from './action-claims.js';
import { callReplyEndpoint } from './call-reply-endpoint.js';
import { contentWords, leadingSentences, rankByOverlap } from './knowledge-match.js';
import { buildReplyRequest, type ReplyRequestParts } from './reply-request.js';

export type ReplyOutcome =
  | { kind: 'reply'; reply: string; via: 'custom_reply' | 'knowledge' }
  /** No provider and no knowledge entry matches: nothing is sent, and nobody is bothered. */
  | { kind: 'none' }
  /** The provider failed or its reply was refused: the caller hands off. */
  | { kind: 'failed'; reason: string };

/** A knowledge entry answers on its own only when it shares this many words (one, for a one-word message). */
const KNOWLEDGE_MIN_SHARED_WORDS = 2;

function knowledgeAnswer(parts: ReplyRequestParts, maxChars: number): string | null {
  const asked = parts.history.at(-1)?.content ?? '';
  const needed = Math.min(KNOWLEDGE_MIN_SHARED_WORDS, contentWords(asked).size);
  const best = rankByOverlap(asked, parts.knowledge, (e) => `${e.title} ${e.content}`)[0];
  if (!best || needed === 0 || best.score < needed) return null;
  return leadingSentences(best.item.content, maxChars);
}

/**
 * An AI reply for one account (docs/custom-reply.md): its custom reply endpoint when one resolves
 * (the account's own, else its group's), otherwise the group's best-matching knowledge entry. Either
 * way the reply must fit `maxChars` and claim no action missing from the verified tool context.
 */
export async function produceReply(
  db: Database.Database,
  integrationId: string,
  parts: ReplyRequestParts,
  options: { maxChars: number; signal: AbortSignal; resolve?: LookupFunction },
): Promise<ReplyOutcome> {
  let provider: ResolvedReplyProvider | null;
  let body: string | undefined;
  try {
    provider = resolveReplyProvider(db, integrationId);
    if (provider) body = JSON.stringify(buildReplyRequest(parts, provider.config));
  } catch (error) {
    // A stored provider that no longer passes its schema (a database kept from before a rule was added):
    // a person answers rather than nobody.
    return {
      kind: 'failed',
      reason: `the custom reply provider cannot be used: ${(error as Error).message.slice(0, 200)}`,
    };
  }
  let reply: string;
  let via: 'custom_reply' | 'knowledge';
  if (provider && body !== undefined) {
    const outcome = await callReplyEndpoint({
      url: provider.config.url,
      secret: provider.secret,
      body,
      timeoutMs: provider.config.timeout_ms,
      signal: options.signal,
      resolve: options.resolve,
    });
    if (!outcome.ok) return { kind: 'failed', reason: `custom reply endpoint: ${outcome.reason}` };
    reply = outcome.reply;
    via = 'custom_reply';
  } else {
    const answer = knowledgeAnswer(parts, options.maxChars);
    if (answer === null) return { kind: 'none' };
    reply = answer;
    via = 'knowledge';
  }
  if (reply.trim() === '') return { kind: 'failed', reason: 'the reply is blank' };
  if (reply.length > options.maxChars)
    return { kind: 'failed', reason: `the reply is ${reply.length} characters; at most ${options.maxChars} fit` };
  const claim = unverifiedClaim(reply, parts.toolContext);
  if (claim !== null)
    return { kind: 'failed', reason: `the reply claims an action the service did not take (${claim})` };
  return { kind: 'reply', reply, via };
}
