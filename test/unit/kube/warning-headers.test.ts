import { describe, expect, it } from 'vitest';
import { warningTexts, warningsOfHeaders } from '../../../src/kube/warning-headers.js';

// The header values as the API server sends them (apiserver pkg/endpoints/filters/warning.go) and as the
// fetch client hands them over: several Warning headers joined with ", ".
describe('warningTexts', () => {
  const cases: Array<{ name: string; header: string | undefined; expected: string[] }> = [
    { name: 'no header', header: undefined, expected: [] },
    {
      name: "a policy's Warn action",
      header: `299 - "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': evictions are watched"`,
      expected: ["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': evictions are watched"],
    },
    {
      name: 'two joined, commas and escaped quotes inside',
      header: '299 - "one, with a comma", 299 - "two \\"quoted\\""',
      expected: ['one, with a comma', 'two "quoted"'],
    },
    {
      name: 'a warn-date after the text',
      header: '299 - "dated" "Sat, 05 Dec 2026 01:00:00 GMT", 299 - "next"',
      expected: ['dated', 'next'],
    },
    {
      name: 'codes other than 299 and empty texts are not shown (client-go)',
      header: '199 - "misc", 299 - ""',
      expected: [],
    },
    { name: 'the same text twice: once', header: '299 - "again", 299 - "again"', expected: ['again'] },
    { name: 'unterminated: nothing after it', header: '299 - "ok", 299 - "cut', expected: ['ok'] },
  ];
  it.each(cases)('$name', ({ header, expected }) => {
    expect(warningTexts(header)).toEqual(expected);
  });

  it("reads the fetch client's lower-case key", () => {
    expect(warningsOfHeaders({ warning: '299 - "w"', 'content-type': 'application/json' })).toEqual(['w']);
    expect(warningsOfHeaders(undefined)).toEqual([]);
  });
});
