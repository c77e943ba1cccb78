import { load } from 'js-yaml';

// A kubeconfig is mostly base64: certificate-authority-data, client-certificate-data and client-key-data
// are kilobytes each. A short command reads the file once, with js-yaml's code not yet compiled, and
// js-yaml scans a plain scalar one character at a time: those values were half of its 4-7 ms in a
// cordon. So they are set aside by a regular expression, a short placeholder is parsed in their place,
// and each is put back where its placeholder landed. The document is the one js-yaml gives for the file.
// js-yaml, not the `yaml` library the rest of the CLI uses: a cold load and parse of a kubeconfig takes
// about a third of `yaml`'s time, and the short commands load nothing else that parses YAML.

/** `  client-key-data: LS0t…` on a line of its own: a key ending in -data, a one-line plain base64 value. */
const BASE64_FIELD = /^([ \t]*(?:- )?[A-Za-z-]+-data:[ \t]+)([A-Za-z0-9+/]{64,}={0,2})[ \t]*$/gm;
/** Values YAML could read as a number, left to js-yaml: digits with e or +, 0x…, 0o…, 0b…. */
const NUMBER_LIKE = /^(?:[0-9eE+]+|0x[0-9a-fA-F]+|0o[0-7]+|0b[01]+)=*$/;
const PLACEHOLDER = 'kubectl-maint-set-aside-';
const WHOLE_PLACEHOLDER = new RegExp(`^${PLACEHOLDER}(\\d+)$`);

/** The text with each long base64 value replaced by a placeholder, and those values in order. */
export function setAsideBase64(text: string): { shortened: string; setAside: string[] } {
  const setAside: string[] = [];
  if (text.includes(PLACEHOLDER)) return { shortened: text, setAside };
  const shortened = text.replace(BASE64_FIELD, (line: string, key: string, value: string) => {
    if (NUMBER_LIKE.test(value)) return line;
    setAside.push(value);
    return `${key}${PLACEHOLDER}${setAside.length - 1}`;
  });
  return { shortened, setAside };
}

/** The kubeconfig's YAML as js-yaml loads it. */
export function loadKubeconfigYaml(text: string): unknown {
  const { shortened, setAside } = setAsideBase64(text);
  if (setAside.length === 0) return load(text);
  let doc: unknown;
  try {
    doc = load(shortened);
  } catch {
    return load(text); // the file's own error, with its own snippet
  }
  let restored = 0;
  let spoiled = false;
  const seen = new Set<object>();
  // In place, through arrays and plain objects only (a timestamp is a Date, !!binary a Uint8Array).
  const restore = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    if (!Array.isArray(node) && Object.getPrototypeOf(node) !== Object.prototype) return;
    seen.add(node);
    const fields = node as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      const value = fields[key];
      if (key.includes(PLACEHOLDER)) spoiled = true;
      if (typeof value !== 'string') restore(value);
      else if (value.includes(PLACEHOLDER)) {
        const index = WHOLE_PLACEHOLDER.exec(value)?.[1];
        const original = index === undefined ? undefined : setAside[Number(index)];
        if (original === undefined) spoiled = true;
        else {
          fields[key] = original;
          restored += 1;
        }
      }
    }
  };
  restore(doc);
  // Every placeholder back, once, as a whole value — or the shortcut changed the document (a placeholder
  // inside a block scalar, say): then js-yaml reads the file as it is.
  return restored === setAside.length && !spoiled ? doc : load(text);
}
