import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The scheduler model is built as kube-scheduler's framework is: the framework and the cluster state know
 * no plugin, plugins know the framework. An import cycle (type imports included) is where that breaks
 * first, and a cycle makes every file in it change with the others.
 */
const ROOT = path.resolve(import.meta.dirname, '../../../src/plan/scheduling');

/**
 * The relative modules a source file names, as paths under ROOT: its imports and re-exports (`import type`
 * included), `import('…')` types and `import()` calls, as the compiler parses them.
 */
function importsOf(file: string, source: string): string[] {
  const out: string[] = [];
  const add = (specifier: ts.Node | undefined) => {
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return;
    const target = path.resolve(path.dirname(path.join(ROOT, file)), specifier.text.replace(/\.js$/, '.ts'));
    out.push(path.relative(ROOT, target));
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, source, ts.ScriptTarget.Latest));
  return out;
}

function sourceFiles(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [path.relative(ROOT, full)] : [];
  });
}

/** The strongly connected components of more than one file (Tarjan): each is an import cycle. */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

const graph = new Map(
  sourceFiles().map((file) => [file, importsOf(file, readFileSync(path.join(ROOT, file), 'utf8'))]),
);

describe('src/plan/scheduling imports', () => {
  it('finds a cycle through a type import or an import type', () => {
    const probe = new Map([
      ['framework.ts', importsOf('framework.ts', "import type { X } from './plugins/x.js';\n")],
      ['plugins/x.ts', importsOf('plugins/x.ts', "import {\n  type FilterPlugin,\n} from '../framework.js';\n")],
      ['node-info.ts', importsOf('node-info.ts', "export type Y = import('./plugins/y.js').Y;\n")],
      ['plugins/y.ts', importsOf('plugins/y.ts', 'import type { NodeInfo } from "../node-info.js";\n')],
      ['pod-info.ts', []],
    ]);
    expect(importCycles(probe).sort()).toEqual([
      ['framework.ts', 'plugins/x.ts'],
      ['node-info.ts', 'plugins/y.ts'],
    ]);
  });

  it('has no import cycle', () => {
    expect(graph.size).toBeGreaterThan(20);
    expect(importCycles(graph)).toEqual([]);
  });

  it.each(['framework.ts', 'cluster-state.ts', 'node-info.ts', 'simulation.ts', 'wave-order.ts', 'placement-score.ts'])(
    '%s imports no plugin',
    (file) => {
      expect(graph.get(file)?.filter((target) => target.startsWith('plugins/'))).toEqual([]);
    },
  );
});
