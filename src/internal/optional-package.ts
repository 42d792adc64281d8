import { createRequire } from 'node:module';
import { ConvoKitError } from '../errors.js';

/** A package that only some users install (docs/packages.md), and the one line that tells them how. */
export interface OptionalPackage {
  /** The npm name, e.g. `pg`. */
  readonly name: string;
  /** What needs it, as the start of a sentence: "The PostgreSQL store". */
  readonly neededBy: string;
  /** The command that installs it. */
  readonly install: string;
}

/** A feature's package is not installed: the message is the one line to act on. */
export class MissingPackageError extends ConvoKitError<'PACKAGE_MISSING'> {
  readonly packageName: string;

  constructor(pkg: OptionalPackage, options?: { cause?: unknown }) {
    super('PACKAGE_MISSING', `${pkg.neededBy} needs ${pkg.name}, which is not installed here: ${pkg.install}`, options);
    this.packageName = pkg.name;
  }
}

const require = createRequire(import.meta.url);

/** Whether the package resolves from convo-kit's own location, as its imports will resolve it. */
export function isInstalled(pkg: OptionalPackage): boolean {
  try {
    require.resolve(`${pkg.name}/package.json`);
    return true;
  } catch {
    return false;
  }
}

/** Throws MissingPackageError unless the package is installed: before a feature starts, not halfway through. */
export function assertInstalled(pkg: OptionalPackage): void {
  if (!isInstalled(pkg)) throw new MissingPackageError(pkg);
}

/**
 * Runs `load` (an `import()` of the package or one of its modules), turning Node's "Cannot find package"
 * for this package into MissingPackageError; any other failure is passed on as it is.
 */
export async function importOptional<T>(pkg: OptionalPackage, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isInstalled(pkg)) throw new MissingPackageError(pkg, { cause: error });
    throw error;
  }
}
