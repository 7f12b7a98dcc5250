// Code shape (issue 56): files over the file limit and functions over the function limit under src/.
// Usage: tsx tools/code-shape.ts [--root DIR] [--max-file-lines N] [--max-function-lines N] [--json] [--check]
// Reports and exits 0; with --check it exits 1 when a file exceeds the file limit.
// Parser: @swc/core's parseSync. typescript@7 is the Go compiler: its package exports only a version,
// and its AST API sits under `unstable/` and talks to the tsc binary over IPC.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseSync } from '@swc/core';

type Node = { type?: string; span?: { start: number; end: number }; [key: string]: unknown };
type Fn = { path: string; line: number; name: string; lines: number };

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const root = resolve(option('--root', join(import.meta.dirname, '..', 'src')));
const maxFile = Number(option('--max-file-lines', '400'));
const maxFunction = Number(option('--max-function-lines', '80'));
if (!(maxFile > 0 && maxFunction > 0)) throw new Error('the limits must be positive numbers');

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.(ts|mjs)$/.test(e.name) ? [join(dir, e.name)] : [],
  );

// The node types that are functions; the class and object methods keep their key in their span.
const FUNCTIONS = new Set([
  'FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'ClassMethod', 'PrivateMethod',
  'Constructor', 'MethodProperty', 'GetterProperty', 'SetterProperty',
]);
// Wrappers an assigned function can sit in without losing the name it is assigned to.
const PASS_NAME = new Set(['ParenthesisExpression', 'TsAsExpression', 'TsSatisfiesExpression', 'TsNonNullExpression']);

function measure(file: string): { lines: number; functions: Fn[] } {
  const text = readFileSync(file, 'utf8');
  const bytes = Buffer.from(text);
  // swc spans are 1-based UTF-8 byte offsets; the line starts are byte offsets too.
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) starts.push(i + 1);
  const lineOf = (offset: number) => {
    let lo = 0, hi = starts.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (starts[mid] <= offset) lo = mid; else hi = mid - 1; }
    return lo + 1;
  };
  const source = (n: Node) => bytes.subarray(n.span!.start - 1, n.span!.end - 1).toString();
  const nameOf = (n: unknown) => {
    const node = n as Node | undefined;
    if (!node?.span) return undefined;
    return node.type === 'Identifier' ? String(node.value) : source(node).replace(/\s+/g, ' ').slice(0, 60);
  };
  const mod = parseSync(text, { syntax: file.endsWith('.ts') ? 'typescript' : 'ecmascript' }) as unknown as Node;
  if (mod.span!.end - 1 > bytes.length) throw new Error(`${file}: spans do not start at the file's first byte`);

  const functions: Fn[] = [];
  const path = relative(dirname(root), file);
  const visit = (value: unknown, assignedTo?: string): void => {
    if (Array.isArray(value)) return value.forEach((v) => visit(v));
    if (!value || typeof value !== 'object') return;
    const n = value as Node;
    if (n.type && FUNCTIONS.has(n.type) && n.span && (n.body || (n.function as Node)?.body)) {
      const name = nameOf(n.identifier) ?? nameOf(n.key) ?? assignedTo ?? '<anonymous>';
      const line = lineOf(n.span.start - 1);
      functions.push({ path, line, name, lines: lineOf(n.span.end - 2) - line + 1 });
    }
    for (const [key, child] of Object.entries(n)) {
      if (key === 'span') continue;
      let hint: string | undefined;
      if (n.type === 'VariableDeclarator' && key === 'init') hint = nameOf(n.id);
      else if (/^(KeyValueProperty|ClassProperty|PrivateProperty)$/.test(n.type ?? '') && key === 'value') hint = nameOf(n.key);
      else if (/^(AssignmentExpression|AssignmentPattern)$/.test(n.type ?? '') && key === 'right') hint = nameOf(n.left);
      else if (n.type && PASS_NAME.has(n.type) && key === 'expression') hint = assignedTo;
      visit(child, hint);
    }
  };
  visit(mod);
  // A file's lines as an editor counts them: a final newline does not start another line.
  const lines = starts.length - (bytes.length > 0 && bytes[bytes.length - 1] === 10 ? 1 : 0);
  return { lines, functions };
}

const files = sourceFiles(root).sort();
const measured = files.map((f) => ({ path: relative(dirname(root), f), ...measure(f) }));
const longFiles = measured.filter((f) => f.lines > maxFile).sort((a, b) => b.lines - a.lines)
  .map(({ path, lines }) => ({ path, lines }));
const longFunctions = measured.flatMap((f) => f.functions).filter((f) => f.lines > maxFunction)
  .sort((a, b) => b.lines - a.lines || a.path.localeCompare(b.path) || a.line - b.line);
const totals = { files: files.length, filesOverLimit: longFiles.length, functionsOverLimit: longFunctions.length };

if (args.includes('--json')) {
  console.log(JSON.stringify({ root, maxFileLines: maxFile, maxFunctionLines: maxFunction, longFiles, longFunctions, totals }, null, 2));
} else {
  console.log(`Files over ${maxFile} lines (${root}):`);
  for (const f of longFiles) console.log(`  ${String(f.lines).padStart(5)}  ${f.path}`);
  console.log(`\nFunctions over ${maxFunction} lines:`);
  for (const f of longFunctions) console.log(`  ${String(f.lines).padStart(5)}  ${f.path}:${f.line}  ${f.name}`);
  console.log(`\nFiles: ${totals.files}; files over ${maxFile} lines: ${totals.filesOverLimit}; ` +
    `functions over ${maxFunction} lines: ${totals.functionsOverLimit}`);
}
if (args.includes('--check') && longFiles.length > 0) process.exitCode = 1;
