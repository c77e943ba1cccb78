/**
 * The API server's `Warning:` response headers (RFC 7234 §5.5: `warn-code SP warn-agent SP "warn-text"
 * [SP "warn-date"]`), sent for a ValidatingAdmissionPolicy binding's Warn action, a webhook's warnings,
 * a deprecated API. The fetch client joins repeated headers with ", ", so one string may hold several.
 * As client-go's default handler, only code 299 with a non-empty text is kept: what kubectl prints as
 * `Warning: TEXT`. Repeats are kept once, in order.
 */
export function warningTexts(header: string | undefined): string[] {
  if (!header) return [];
  const texts: string[] = [];
  let rest = header;
  for (;;) {
    rest = rest.replace(/^[\s,]+/, '');
    const head = /^(\d{3}) (\S+) "/.exec(rest);
    if (!head) break;
    const { text, after } = quoted(rest.slice(head[0].length));
    if (after === null) break;
    rest = after.replace(/^ "[^"]*"/, '');
    if (head[1] === '299' && text.trim() !== '' && !texts.includes(text)) texts.push(text);
  }
  return texts;
}

/** A quoted string's content from after its opening quote, backslash escapes undone; after: null when unterminated. */
function quoted(from: string): { text: string; after: string | null } {
  let text = '';
  for (let i = 0; i < from.length; i += 1) {
    const c = from[i]!;
    if (c === '"') return { text, after: from.slice(i + 1) };
    if (c === '\\' && i + 1 < from.length) {
      i += 1;
      text += from[i]!;
    } else text += c;
  }
  return { text, after: null };
}

/** The warnings of a response's headers (keys as the fetch client gives them, lower case). */
export function warningsOfHeaders(headers: Readonly<Record<string, string>> | undefined): string[] {
  return warningTexts(headers?.['warning'] ?? headers?.['Warning']);
}
