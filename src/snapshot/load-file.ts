import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { parseAllDocuments } from 'yaml';
import { assembleSnapshot } from './assemble.js';
import {
  JsonStreamError,
  jsonErrorReason,
  MAX_STRING_LENGTH,
  positionOf,
  readJsonListFile,
} from '../json-list-stream.js';
import { draVersionOf, toV1 } from './dra-versions.js';
import {
  DRA_KINDS,
  SNAPSHOT_KINDS,
  type AdmissionParams,
  type DraKind,
  type Snapshot,
  type SnapshotKind,
  type SnapshotSource,
} from './types.js';
import type { V1ValidatingAdmissionPolicy } from '@kubernetes/client-node';
import { objectProblem } from './validate.js';
import { SNAPSHOT_COMMAND } from './snapshot-command.js';

export { SNAPSHOT_COMMAND };

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
      content = { text: await readText(path, totalBytes, (read) => report?.(read, 'reading')) };
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

/**
 * The file as one flat string: read into one buffer (16 MB at a time, reporting the bytes read), then
 * decoded once. readFile(path, 'utf8') decodes piece by piece into a rope that the first look at the text
 * flattens: two more copies of a file that can be hundreds of megabytes.
 */
async function readText(path: string, totalBytes: number, onBytes: (read: number) => void): Promise<string> {
  // A pipe (`--snapshot <(kubectl get …)`, /dev/stdin) has no size: read it to its end.
  if (!(await stat(path)).isFile()) return (await readFile(path)).toString('utf8');
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(totalBytes);
    let read = 0;
    while (read < totalBytes) {
      const { bytesRead } = await file.read(buffer, read, Math.min(PIECE, totalBytes - read), read);
      if (bytesRead === 0) break; // the file shrank while it was read
      read += bytesRead;
      onBytes(read);
    }
    return buffer.toString('utf8', 0, read);
  } finally {
    await file.close();
  }
}

const PIECE = 16 * 1024 * 1024;

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
  const admissionParams = collected.admissionParams();
  return assembleSnapshot(source, collected.orderedObjects(), collected.warnings(), {
    ...(admissionParams.length > 0 ? { admissionParams } : {}),
    serverVersion: collected.serverVersion,
  });
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

/** A list's items are numbered below this (the largest array V8 holds is 2^32 − 1 long), a place exact in a double. */
const PLACES_PER_LIST = 2 ** 32;

function isSnapshotKind(kind: string): kind is SnapshotKind {
  return KNOWN_KINDS.has(kind);
}

const isDraKind = (kind: string): kind is DraKind => (DRA_KINDS as readonly string[]).includes(kind);

/**
 * Sorts documents' objects by kind, validating each, and remembers what it skipped. An item's place in the
 * file (`items[4]`) and its name (`Pod shop/web-1`) are put into words only for an error: a valid file of
 * 150,000 pods builds no string per object.
 */
class ObjectCollector {
  readonly objects = new Map<SnapshotKind, object[]>();
  private readonly skipped = new Map<string, number>();
  /** Objects of kinds the plan does not read as such, kept for the policies that take them as params. */
  private readonly others = new Map<string, object[]>();
  /**
   * Each object's first place in the file, by kind, namespace and name, to tell an identical copy from a
   * conflicting one. A place is a number: the list it is in (an index into `lists`) and its index there.
   */
  private readonly seen = new Map<SnapshotKind, Map<string, Map<string, { item: object; place: number }>>>();
  /** The prefix of each list's item places (`items`, `document 2: items[3]: items`). */
  private readonly lists: string[] = [];
  private readonly duplicates: string[] = [];
  /** The server's gitVersion the file records ("v1.34.4"), if it does. */
  serverVersion: string | undefined;

  constructor(private readonly label: string) {}

  addDocument(doc: unknown, prefix: string): void {
    if (Array.isArray(doc)) {
      const list = this.lists.push(prefix) - 1;
      for (let i = 0; i < doc.length; i++) this.addItem(doc[i], list, i, undefined);
      return;
    }
    if (!isObject(doc)) return this.fail(`${prefix}not a List`);
    const kind = doc.kind;
    // The server's version, as `kubectl version -o json` prints it: a document of its own, or the
    // `serverVersion` field of the List (docs/planning.md).
    if (doc.serverVersion !== undefined) {
      this.addServerVersion(doc.serverVersion, prefix);
      if (kind === undefined) return;
    }
    if (typeof kind === 'string' && kind.endsWith('List') && Array.isArray(doc.items)) {
      // A typed list (PodList) omits kind on its items and says, even when empty, that the kind was read.
      const itemKind = kind === 'List' ? undefined : kind.slice(0, -'List'.length);
      if (itemKind && isSnapshotKind(itemKind) && !this.objects.has(itemKind)) this.objects.set(itemKind, []);
      const list = this.lists.push(`${prefix}items`) - 1;
      const items = doc.items as unknown[];
      for (let i = 0; i < items.length; i++) this.addItem(items[i], list, i, itemKind);
      return;
    }
    if (typeof kind === 'string' && kind !== '') {
      return this.addItem(doc, this.lists.push(prefix.replace(/: $/, '') || 'the object') - 1, -1, undefined);
    }
    this.fail(`${prefix}not a List`);
  }

  private addServerVersion(value: unknown, prefix: string): void {
    const gitVersion = isObject(value) ? value.gitVersion : undefined;
    if (typeof gitVersion !== 'string' || gitVersion === '') {
      return this.fail(`${prefix}serverVersion: not a version (expected what kubectl version -o json prints there)`);
    }
    if (this.serverVersion !== undefined && this.serverVersion !== gitVersion) {
      return this.fail(`${prefix}serverVersion: ${gitVersion}, but the file also says ${this.serverVersion}`);
    }
    this.serverVersion = gitVersion;
  }

  /** `items[4]`; `the object` (or `document 2`) for an object that is a document of its own. */
  private where(place: number): string {
    const list = Math.floor(place / PLACES_PER_LIST);
    const index = (place % PLACES_PER_LIST) - 1;
    return index < 0 ? this.lists[list]! : `${this.lists[list]!}[${index}]`;
  }

  private addItem(given: unknown, list: number, index: number, impliedKind: string | undefined): void {
    const place = list * PLACES_PER_LIST + index + 1;
    if (!isObject(given)) return this.fail(`${this.where(place)} is not an object`);
    let item = given;
    const kind = typeof item.kind === 'string' && item.kind !== '' ? item.kind : impliedKind;
    if (!kind) return this.fail(`${this.where(place)} has no kind`);
    if (kind.endsWith('List') && Array.isArray(item.items)) return this.addDocument(item, `${this.where(place)}: `);
    if (!isSnapshotKind(kind)) {
      this.skipped.set(kind, (this.skipped.get(kind) ?? 0) + 1);
      const others = this.others.get(kind);
      if (others) others.push(item);
      else this.others.set(kind, [item]);
      return;
    }
    // DRA objects of an older version (kubectl prints the version the server prefers) in v1's shape.
    const draVersion = isDraKind(kind) ? draVersionOf(item.apiVersion) : undefined;
    if (draVersion) item = toV1(kind as DraKind, item, draVersion);
    const metadata = item.metadata;
    if (!isObject(metadata) || typeof metadata.name !== 'string' || metadata.name === '') {
      return this.fail(`${this.where(place)} (${kind}) has no metadata.name`);
    }
    const problem = objectProblem(kind, item);
    if (problem) return this.fail(`${this.where(place)}: ${objectName(kind, metadata)}: ${problem}`);
    const namespace = typeof metadata.namespace === 'string' ? metadata.namespace : '';
    const names = this.namesIn(kind, namespace);
    const first = names.get(metadata.name);
    if (first !== undefined) {
      // Serialised only for a duplicate (rare): comparing every object's text would cost a second parse's time.
      if (JSON.stringify(first.item) !== JSON.stringify(item)) {
        return this.fail(
          `${this.where(place)}: ${objectName(kind, metadata)} is also ${this.where(first.place)}, with other contents`,
        );
      }
      this.duplicates.push(objectName(kind, metadata));
      return;
    }
    names.set(metadata.name, { item, place });
    const ofKind = this.objects.get(kind);
    const object = item.kind === kind ? item : { ...item, kind };
    if (ofKind) ofKind.push(object);
    else this.objects.set(kind, [object]);
  }

  private namesIn(kind: SnapshotKind, namespace: string): Map<string, { item: object; place: number }> {
    let namespaces = this.seen.get(kind);
    if (!namespaces) this.seen.set(kind, (namespaces = new Map()));
    let names = namespaces.get(namespace);
    if (!names) namespaces.set(namespace, (names = new Map()));
    return names;
  }

  orderedObjects(): Map<SnapshotKind, readonly object[]> {
    return new Map(SNAPSHOT_KINDS.filter((k) => this.objects.has(k)).map((k) => [k, this.objects.get(k)!] as const));
  }

  /**
   * The params of the file's ValidatingAdmissionPolicies (their paramKind), from the objects of other kinds
   * it holds; a param kind with no object in the file was not read (a file cannot say it has none).
   */
  admissionParams(): AdmissionParams[] {
    const kinds = new Map<string, { apiVersion: string; kind: string }>();
    for (const p of (this.objects.get('ValidatingAdmissionPolicy') ?? []) as V1ValidatingAdmissionPolicy[]) {
      const k = p.spec?.paramKind;
      if (k?.apiVersion && k.kind) kinds.set(`${k.apiVersion}/${k.kind}`, { apiVersion: k.apiVersion, kind: k.kind });
    }
    return [...kinds.values()].map(({ apiVersion, kind }) => {
      const objects = (this.others.get(kind) ?? []).filter(
        (o) => (o as { apiVersion?: string }).apiVersion === apiVersion,
      );
      return objects.length > 0
        ? { apiVersion, kind, namespaced: null, objects }
        : { apiVersion, kind, namespaced: null, objects: null, why: 'none in the snapshot file' };
    });
  }

  warnings(): string[] {
    const warnings: string[] = [];
    const params = new Set(
      this.admissionParams()
        .filter((p) => p.objects !== null)
        .map((p) => p.kind),
    );
    const skipped = [...this.skipped].filter(([kind]) => !params.has(kind));
    if (skipped.length > 0) {
      const kinds = skipped.map(([kind, count]) => `${kind} (${count})`).join(', ');
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
