import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import { statement } from '../../state/statement.js';

/** One bound is required: an unbounded run is what starved the emulator (docs/outbound.md). */
export type StepLimits = { maxSteps: number; deadline?: number } | { maxSteps?: number; deadline: number };

/** Outbound work done one step per due document (journey steps, delivery steps). */
export interface BoundedWork<Doc> {
  db: Database.Database;
  /** `SELECT data …` of the due documents, oldest first; its parameters are `dueBy()` and a row limit. */
  dueSql: string;
  /** The emulator time as `dueSql` compares it (ISO text or ms). */
  dueBy(): string | number;
  /** Due documents read per query, so a run never loads a whole backlog. */
  pageRows: number;
  step(doc: Doc): void;
  /** One transaction per page (one commit instead of one per step). @default false */
  pageInTransaction?: boolean;
}

/**
 * Runs `work`'s due steps, oldest first, a page at a time, until none is due, `maxSteps` ran, or
 * `deadline` (performance.now() ms) passed after at least one. True when some may remain.
 */
export function runBounded<Doc>(work: BoundedWork<Doc>, limits: StepLimits): boolean {
  const maxSteps = limits.maxSteps ?? Number.POSITIVE_INFINITY;
  const timeUp = () => limits.deadline !== undefined && performance.now() >= limits.deadline;
  let ran = 0;
  /** One page's steps; true when the deadline passed. */
  const runPage = (docs: Doc[]): boolean => {
    for (const doc of docs) {
      work.step(doc);
      ran++;
      if (timeUp()) return true;
    }
    return false;
  };
  for (;;) {
    const rows = statement(work.db, work.dueSql).all(work.dueBy(), Math.min(work.pageRows, maxSteps - ran)) as {
      data: string;
    }[];
    if (rows.length === 0) return false;
    const docs = rows.map((row) => JSON.parse(row.data) as Doc);
    const outOfTime = work.pageInTransaction ? work.db.transaction(runPage)(docs) : runPage(docs);
    if (outOfTime || ran >= maxSteps) return true;
    if (rows.length < work.pageRows) return false;
  }
}
