import { describe, expect, it } from 'vitest';
import { drawTimelineAxis, markColumns, placeLabels } from '../../../src/ui/timeline-axis.js';

describe('markColumns', () => {
  it('places marks in proportion to their time, the last one just before the arrow', () => {
    expect(markColumns([0, 50, 110], 24)).toEqual([0, 10, 22]);
  });
  it('keeps marks apart when two times land on the same column', () => {
    expect(markColumns([0, 1, 2, 300], 12)).toEqual([0, 1, 2, 10]);
  });
  it('puts a lone t=0 mark at the start', () => {
    expect(markColumns([0], 10)).toEqual([0]);
  });
});

describe('placeLabels', () => {
  it('writes labels under their marks on one row when they fit', () => {
    expect(
      placeLabels([
        { column: 0, text: '0s' },
        { column: 5, text: '50s' },
      ]),
    ).toEqual(['0s   50s']);
  });
  it('moves a label that would touch the previous one to a second row instead of dropping it', () => {
    expect(
      placeLabels([
        { column: 0, text: '0s' },
        { column: 2, text: '30s' },
      ]),
    ).toEqual(['0s', '  30s']);
  });
});

describe('drawTimelineAxis', () => {
  it('keeps the last label inside the axis, ending under its mark', () => {
    expect(
      drawTimelineAxis(
        [
          { atSeconds: 0, text: '0s' },
          { atSeconds: 30, text: '30s' },
        ],
        10,
      ),
    ).toEqual(['●───────●▶', '0s     30s']);
  });
  it('draws the node-failure sequence: taint at grace, deletions at grace+60 and grace+300', () => {
    const lines = drawTimelineAxis(
      [
        { atSeconds: 0, text: '0s' },
        { atSeconds: 50, text: '50s' },
        { atSeconds: 110, text: '110s' },
        { atSeconds: 350, text: '350s' },
      ],
      37,
    );
    expect(lines).toEqual(['●────●─────●───────────────────────●▶', '0s   50s   110s                  350s']);
  });
});
