import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { parseAllDocuments } from 'yaml';
import { assembleSnapshot } from './assemble.js';
import {
  JsonStreamError,
  jsonErrorReason,
  MAX_STRING_LENGTH,
  positionOf,
  readJsonListFile,
} from './json-list-stream.js';
import { SNAPSHOT_KINDS, type Snapshot, type SnapshotKind, type SnapshotSource } from './types.js';
import { objectProblem } from './validate.js';

/** The command whose output `--snapshot` reads; quoted in every error so the fix is one copy-paste away. */
export const SNAPSHOT_COMMAND =
  'kubectl get nodes,pods,poddisruptionbudgets,replicasets,deployments,statefulsets,daemonsets,replicationcontrollers,jobs,services -A -o json';

/**
 * Without nodes there is nothing to plan. Pods are not required of a file: one with none may be a
 * cluster with no pods or a `kubectl get` that did not ask for them, and the plan says it is incomplete.
 */
const REQUIRED_IN_FILE: readonly SnapshotKind[] = ['Node'];

/** How far reading a snapshot file has got. */
export interface FileProgress {
  readonly path: string;
  readonly bytesRead: number;
  readonly totalBytes: number;
  /** Reading streams (large files) or reads at once; parsing is one blocking step after a whole read. */
  readonly phase: 'reading' | 'parsing';
}

export interface SnapshotFileOptions {
  readonly onProgress?: ((progress: FileProgress) => void) | undefined;
}

/** A snapshot file that cannot be used; the message is one line and names the file. */
export class SnapshotLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotLoadError';
  }
}

/**
 * Reads `--snapshot FILE`: the JSON `kubectl get … -o json` prints (a `List` of mixed kinds), the same as
 * YAML, a multi-document YAML stream, a plain array of objects, or typed lists (`PodList`…) as the API
 * serves them.
 *
 * Which kinds count as loaded: a `kubectl get` of several kinds prints one List in which a kind with no
 * objects leaves no trace, so it cannot be told apart from a kind that was not asked for. The rule is
 * therefore: a kind is loaded when at least one object of it is present, or when the file holds a typed
 * list of that kind (`PodDisruptionBudgetList`, even empty). Nodes are required. A kind that is missing
 * (pods included: a file of nodes only cannot tell an empty cluster from pods not asked for) makes the plan
 * incomplete or adds a caveat; it never fails the load.
 *
 * A file too large for one string (a large cluster's List is over 1 GB) is read as JSON in pieces.
 */
export async function loadSnapshotFile(path: string, options: SnapshotFileOptions = {}): Promise<Snapshot> {
  const label = `snapshot "${path}"`;
  const source = { type: 'file', path } as const;
  // Only reading is wrapped here: checking the objects says its own errors.
  let content: { text: string } | { document: unknown };
  try {
    const totalBytes = (await stat(path)).size;
    const report = options.onProgress
      ? (bytesRead: number, phase: FileProgress['phase']) =>
          options.onProgress?.({ path, bytesRead, totalBytes, phase })
      : undefined;
    report?.(0, 'reading');
    if (totalBytes > MAX_STRING_LENGTH) {
      // Read and parsed piece by piece: progress after each piece.
      content = { document: await readLargeJson(path, label, (read) => report?.(read, 'reading')) };
    } else {
      content = {
        text: report ? await readTextReporting(path, (read) => report(read, 'reading')) : await readFile(path, 'utf8'),
      };
      // One JSON.parse or YAML parse of the whole text follows, and it blocks until it is done.
      report?.(totalBytes, 'parsing');
    }
  } catch (err) {
    if (err instanceof SnapshotLoadError) throw err; // readLargeJson's "not valid JSON"
    throw new SnapshotLoadError(`cannot read ${label}: ${describeReadError(err)}`);
  }
  return 'text' in content
    ? snapshotFromText(content.text, source, label)
    : snapshotFromDocuments([content.document], source, label);
}

/** The file as text, reporting the bytes read after each 16 MB piece. */
async function readTextReporting(path: string, onBytes: (read: number) => void): Promise<string> {
  const pieces: Buffer[] = [];
  let read = 0;
  for await (const piece of createReadStream(path, { highWaterMark: 16 * 1024 * 1024 }) as AsyncIterable<Buffer>) {
    pieces.push(piece);
    read += piece.length;
    onBytes(read);
  }
  return Buffer.concat(pieces).toString('utf8');
}

async function readLargeJson(path: string, label: string, onBytes: (read: number) => void): Promise<unknown> {
  try {
    return await readJsonListFile(path, onBytes);
  } catch (err) {
    if (!(err instanceof JsonStreamError)) throw err;
    const where = await lineAndColumnAtByte(path, err.offset);
    throw new SnapshotLoadError(`cannot read ${label}: not valid JSON${where}: ${err.message}`);
  }
}

/** Counts the lines before a byte offset: only done for an error, so a second read of the file is fine. */
async function lineAndColumnAtByte(path: string, offset: number): Promise<string> {
  let line = 1;
  let lineStart = 0;
  let read = 0;
  for await (const chunk of createReadStream(path, { end: Math.max(0, offset - 1) }) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(0x0a); i >= 0; i = chunk.indexOf(0x0a, i + 1)) {
      line++;
      lineStart = read + i + 1;
    }
    read += chunk.length;
  }
  return ` at line ${line}, column ${offset - lineStart + 1}`;
}

/** Parses and validates snapshot text. `label` names the source in errors (`snapshot "x.json"`). */
export function snapshotFromText(text: string, source: SnapshotSource, label: string): Snapshot {
  return snapshotFromDocuments(parseDocuments(text, label), source, label);
}

/** Validates already parsed documents (the embedded examples come in this way). */
export function snapshotFromDocuments(documents: readonly unknown[], source: SnapshotSource, label: string): Snapshot {
  const collected = new ObjectCollector(label);
  documents.forEach((doc, i) => collected.addDocument(doc, documents.length > 1 ? `document ${i + 1}: ` : ''));
  for (const kind of REQUIRED_IN_FILE) {
    if (!collected.objects.has(kind)) {
      throw new SnapshotLoadError(
        `cannot read ${label}: it has no ${kind} objects (make one with: ${SNAPSHOT_COMMAND})`,
      );
    }
  }
  return assembleSnapshot(source, collected.orderedObjects(), collected.warnings());
}

function parseDocuments(text: string, label: string): unknown[] {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') throw new SnapshotLoadError(`cannot read ${label}: the file is empty`);
  if (/^\s*[[{]/.test(body)) return [parseJson(body, label)];
  const documents = parseAllDocuments(body);
  const list = Array.isArray(documents) ? documents : [documents];
  const values: unknown[] = [];
  for (const doc of list) {
    const [error] = doc.errors;
    if (error) {
      const at = error.linePos?.[0];
      const where = at ? ` at line ${at.line}, column ${at.col}` : '';
      const reason = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
      throw new SnapshotLoadError(`cannot read ${label}: not valid JSON or YAML${where}: ${reason}`);
    }
    const value: unknown = doc.toJS({ maxAliasCount: 1000 });
    if (value !== null && value !== undefined) values.push(value);
  }
  if (values.length === 0) throw new SnapshotLoadError(`cannot read ${label}: the file holds no objects`);
  return values;
}

function parseJson(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const position = positionOf(err);
    const where = position === undefined ? '' : lineAndColumn(text, position);
    throw new SnapshotLoadError(`cannot read ${label}: not valid JSON${where}: ${jsonErrorReason(err)}`);
  }
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return ` at line ${line}, column ${column}`;
}

function describeReadError(err: unknown): string {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'is a directory';
    case 'EACCES':
      return 'permission denied';
    default:
      return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'unreadable';
  }
}

const KNOWN_KINDS: ReadonlySet<string> = new Set(SNAPSHOT_KINDS);

function isSnapshotKind(kind: string): kind is SnapshotKind {
  return KNOWN_KINDS.has(kind);
}

/** Sorts documents' objects by kind, validating each, and remembers what it skipped. */
class ObjectCollector {
  readonly objects = new Map<SnapshotKind, object[]>();
  private readonly skipped = new Map<string, number>();
  /** Each object's first place in the file, to tell an identical copy from a conflicting one. */
  private readonly seen = new Map<string, { where: string; item: Record<string, unknown> }>();
  private readonly duplicates: string[] = [];

  constructor(private readonly label: string) {}

  addDocument(doc: unknown, prefix: string): void {
    if (Array.isArray(doc)) {
      doc.forEach((item, i) => this.addItem(item, `${prefix}[${i}]`, undefined));
      return;
    }
    if (!isObject(doc)) return this.fail(`${prefix}not a List`);
    const kind = doc.kind;
    if (typeof kind === 'string' && kind.endsWith('List') && Array.isArray(doc.items)) {
      // A typed list (PodList) omits kind on its items and says, even when empty, that the kind was read.
      const itemKind = kind === 'List' ? undefined : kind.slice(0, -'List'.length);
      if (itemKind && isSnapshotKind(itemKind) && !this.objects.has(itemKind)) this.objects.set(itemKind, []);
      doc.items.forEach((item: unknown, i: number) => this.addItem(item, `${prefix}items[${i}]`, itemKind));
      return;
    }
    if (typeof kind === 'string' && kind !== '')
      return this.addItem(doc, prefix.replace(/: $/, '') || 'the object', undefined);
    this.fail(`${prefix}not a List`);
  }

  private addItem(item: unknown, where: string, impliedKind: string | undefined): void {
    if (!isObject(item)) return this.fail(`${where} is not an object`);
    const kind = typeof item.kind === 'string' && item.kind !== '' ? item.kind : impliedKind;
    if (!kind) return this.fail(`${where} has no kind`);
    if (kind.endsWith('List') && Array.isArray(item.items)) return this.addDocument(item, `${where}: `);
    if (!isSnapshotKind(kind)) {
      this.skipped.set(kind, (this.skipped.get(kind) ?? 0) + 1);
      return;
    }
    const metadata = item.metadata;
    if (!isObject(metadata) || typeof metadata.name !== 'string' || metadata.name === '') {
      return this.fail(`${where} (${kind}) has no metadata.name`);
    }
    const name = objectName(kind, metadata);
    const problem = objectProblem(kind, item);
    if (problem) return this.fail(`${where}: ${name}: ${problem}`);
    const key = `${kind}/${metadata.namespace ?? ''}/${metadata.name}`;
    const first = this.seen.get(key);
    if (first !== undefined) {
      // Serialised only for a duplicate (rare): comparing every object's text would cost a second parse's time.
      if (JSON.stringify(first.item) !== JSON.stringify(item)) {
        return this.fail(`${where}: ${name} is also ${first.where}, with other contents`);
      }
      this.duplicates.push(name);
      return;
    }
    this.seen.set(key, { where, item });
    const list = this.objects.get(kind);
    const object = item.kind === kind ? item : { ...item, kind };
    if (list) list.push(object);
    else this.objects.set(kind, [object]);
  }

  orderedObjects(): Map<SnapshotKind, readonly object[]> {
    return new Map(SNAPSHOT_KINDS.filter((k) => this.objects.has(k)).map((k) => [k, this.objects.get(k)!] as const));
  }

  warnings(): string[] {
    const warnings: string[] = [];
    if (this.skipped.size > 0) {
      const kinds = [...this.skipped].map(([kind, count]) => `${kind} (${count})`).join(', ');
      warnings.push(`${this.label}: ignored objects of kinds the plan does not use: ${kinds}`);
    }
    if (this.duplicates.length > 0) {
      const shown = this.duplicates.slice(0, 3).join(', ');
      const more = this.duplicates.length > 3 ? ` and ${this.duplicates.length - 3} more` : '';
      warnings.push(`${this.label}: skipped identical second copies of ${shown}${more}`);
    }
    return warnings;
  }

  private fail(problem: string): never {
    const hint = problem.endsWith('not a List') ? ` (make one with: ${SNAPSHOT_COMMAND})` : '';
    throw new SnapshotLoadError(`cannot read ${this.label}: ${problem}${hint}`);
  }
}

/** `Pod shop/web-1`, `Node k8s-node-1`: how errors name an object. */
function objectName(kind: string, metadata: Record<string, unknown>): string {
  const namespace = typeof metadata.namespace === 'string' && metadata.namespace !== '' ? `${metadata.namespace}/` : '';
  const name = String(metadata.name);
  return `${kind} ${namespace}${name.length > 253 ? `${name.slice(0, 253)}…` : name}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
