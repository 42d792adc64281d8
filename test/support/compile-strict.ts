import { dirname, relative } from 'node:path';
import ts from 'typescript';

/**
 * Compiles these files as a user's strict ESM project would (`tsc --strict`, NodeNext, DOM types for
 * fetch) into `outDir`, emitting nothing on an error. Returns every diagnostic as `TS<code> <file>:<line> <text>`.
 */
export function compileStrict(files: string[], outDir: string): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmitOnError: true,
    skipLibCheck: false,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    outDir,
  });
  const emitted = program.emit();
  const messages = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((d) => {
    const where = d.file
      ? `${relative(dirname(outDir), d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start!).line + 1}`
      : '';
    return `TS${d.code} ${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  return [...new Set(messages)];
}
