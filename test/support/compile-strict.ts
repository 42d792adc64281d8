import { writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
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

/**
 * Writes a generated client's program (`client.ts`) and the calls its types must refuse (`refused.ts`) into
 * `dir`, beside the generated code, compiles both with {@link compileStrict} into `dir/out` and, when that is
 * clean, loads `out/client.js`. Answers every diagnostic and, when there is none, the loaded program.
 */
export async function compileClient<Program>(
  dir: string,
  sources: { client: string; refused: string },
): Promise<{ diagnostics: string[]; program?: Program }> {
  writeFileSync(join(dir, 'client.ts'), sources.client);
  writeFileSync(join(dir, 'refused.ts'), sources.refused);
  const diagnostics = compileStrict([join(dir, 'client.ts'), join(dir, 'refused.ts')], join(dir, 'out'));
  if (diagnostics.length > 0) return { diagnostics };
  return { diagnostics, program: (await import(pathToFileURL(join(dir, 'out', 'client.js')).href)) as Program };
}
