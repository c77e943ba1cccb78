import type { V1LabelSelector, V1LabelSelectorRequirement } from '@kubernetes/client-node';

export type Labels = Readonly<Record<string, string>> | undefined;

/**
 * A label selector in the API's structured form. `null` (the field is absent) selects nothing in
 * most APIs; `{}` selects everything. Callers decide which of the two an absent selector means.
 */
export function matchesLabelSelector(labels: Labels, selector: V1LabelSelector): boolean {
  const have = labels ?? {};
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (have[key] !== value) return false;
  }
  return (selector.matchExpressions ?? []).every((req) => matchesRequirement(have, req));
}

function matchesRequirement(labels: Readonly<Record<string, string>>, req: V1LabelSelectorRequirement): boolean {
  const value = labels[req.key];
  const present = Object.prototype.hasOwnProperty.call(labels, req.key);
  switch (req.operator) {
    case 'In':
      return present && (req.values ?? []).includes(value as string);
    case 'NotIn':
      return !present || !(req.values ?? []).includes(value as string);
    case 'Exists':
      return present;
    case 'DoesNotExist':
      return !present;
    default:
      // The API server rejects unknown operators; an unknown one selects nothing, as in apimachinery.
      return false;
  }
}

/**
 * Parses the string form used by `-l` and `--pod-selector` (`a=b,c!=d,e in (x,y),f notin (z),g,!h`)
 * into the structured form. Throws an Error with a one-line message on bad syntax.
 */
export function parseLabelSelector(text: string): V1LabelSelector {
  const matchExpressions: V1LabelSelectorRequirement[] = [];
  const matchLabels: Record<string, string> = {};
  for (const part of splitTopLevel(text)) {
    const term = part.trim();
    if (term === '') continue;
    let m: RegExpMatchArray | null;
    if ((m = term.match(/^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/))) {
      const values = m[3]!
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
      matchExpressions.push({ key: m[1]!, operator: m[2] === 'in' ? 'In' : 'NotIn', values });
    } else if ((m = term.match(/^([\w./-]+)\s*!=\s*([\w./-]*)$/))) {
      matchExpressions.push({ key: m[1]!, operator: 'NotIn', values: [m[2]!] });
    } else if ((m = term.match(/^([\w./-]+)\s*==?\s*([\w./-]*)$/))) {
      matchLabels[m[1]!] = m[2]!;
    } else if ((m = term.match(/^!\s*([\w./-]+)$/))) {
      matchExpressions.push({ key: m[1]!, operator: 'DoesNotExist' });
    } else if ((m = term.match(/^([\w./-]+)$/))) {
      matchExpressions.push({ key: m[1]!, operator: 'Exists' });
    } else {
      throw new Error(`invalid label selector "${text}": cannot parse "${term}"`);
    }
  }
  return { matchLabels, matchExpressions };
}

/** Splits on commas that are not inside parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
