import type Database from 'better-sqlite3';
import type { EmulatorContext } from '../route-handler.js';
import { Collection } from '../state/collection.js';

/**
 * AI replies asked for and not yet done, kept in the database beside the workspace: a restart on a `--db` file, or
 * an import of a state saved while they waited (docs/emulator.md, "Saving and loading state"), asks them again.
 */
export const AI_REPLY_JOBS_KIND = 'ai_reply_jobs';

export type PendingReply = { id: string; queued_at: string } & (
  | { task: 'reply'; message_id: string }
  | { task: 'comment_reply'; comment_id: string }
);
type Job = { task: 'reply'; message_id: string } | { task: 'comment_reply'; comment_id: string };

const jobsOf = (db: Database.Database) => new Collection<PendingReply>(db, AI_REPLY_JOBS_KIND);
/** The jobs this process runs now, by row id: an import of its own export must not ask them twice. */
const running = new WeakMap<Database.Database, Set<string>>();

/**
 * Queues `run` on `ctx.aiReplies` and records the job until it ends; false (nothing recorded) when the queue is
 * full. A job cut off by the emulator stopping stays recorded, to be asked again at the next start.
 */
export function queueRecordedReply(
  ctx: EmulatorContext,
  job: Job,
  run: (signal: AbortSignal) => Promise<void>,
): boolean {
  const jobs = jobsOf(ctx.db);
  const record = { id: ctx.newId('airj'), queued_at: ctx.clock.iso(), ...job } as PendingReply;
  const active = running.get(ctx.db) ?? new Set<string>();
  running.set(ctx.db, active);
  const queued = ctx.aiReplies.enqueue(job.task, async (signal) => {
    try {
      await run(signal);
    } finally {
      active.delete(record.id);
      if (!signal.aborted && ctx.db.open) jobs.delete(record.id);
    }
  });
  if (queued) {
    jobs.insert(record);
    active.add(record.id);
  }
  return queued;
}

/** The recorded jobs no job of this process runs, oldest first, each removed: the caller asks them again. */
export function takeWaitingReplies(db: Database.Database): PendingReply[] {
  const active = running.get(db) ?? new Set<string>();
  const jobs = jobsOf(db);
  const waiting = jobs
    .all()
    .reverse()
    .filter((job) => !active.has(job.id));
  db.transaction(() => waiting.forEach((job) => jobs.delete(job.id)))();
  return waiting;
}
