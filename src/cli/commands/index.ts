import { type Command } from 'commander';

export interface CommandEntry {
  name: string;
  /** Imports the command's module only when it is needed, so `convo-kit sign` never loads zod schemas or SQLite. */
  load(): Promise<(program: Command) => void>;
}

/** Every command, in the order `convo-kit --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'listen', load: async () => (await import('./listen.js')).registerListen },
  { name: 'deliveries', load: async () => (await import('./deliveries.js')).registerDeliveries },
  { name: 'replay', load: async () => (await import('./replay.js')).registerReplay },
  { name: 'trigger', load: async () => (await import('./trigger.js')).registerTrigger },
  { name: 'sign', load: async () => (await import('./sign.js')).registerSign },
  { name: 'dev', load: async () => (await import('./dev.js')).registerDev },
  { name: 'emulator', load: async () => (await import('./emulator.js')).registerEmulator },
  { name: 'openapi', load: async () => (await import('./openapi.js')).registerOpenapi },
];

/**
 * Defines the command named in `argv`, or every command when none is named (help, a typo: commander
 * then lists them all or suggests the closest).
 */
export async function registerCommands(program: Command, argv: readonly string[]): Promise<void> {
  const named = COMMANDS.filter((entry) => entry.name === argv[2]);
  for (const entry of named.length ? named : COMMANDS) (await entry.load())(program);
}
