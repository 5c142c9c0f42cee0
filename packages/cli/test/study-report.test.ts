import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMarkdownTable, renderStudyReport } from '../src/report/study-report.js';

const PAYLOADS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(2)>', "'><svg onload=alert(3)>", '<ScRiPt>alert(4)</sCrIpT>'];

describe('study report pieces', () => {
  it('a Markdown cell cannot break its table (pipes and newlines escaped)', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 4 }), (cells) => {
        const lines = formatMarkdownTable(
          cells.map((_, k) => `h${k}`),
          [cells],
        ).split('\n');
        expect(lines).toHaveLength(3);
        // Unescaped pipes in the data row: exactly the cell separators.
        expect(lines[2]!.replace(/\\\\/g, '').replace(/\\\|/g, '').split('|')).toHaveLength(cells.length + 2);
      }),
    );
  });

  it('a Markdown cell cannot carry raw HTML: & < > become entities that display as the same characters', () => {
    const table = formatMarkdownTable(['statement'], [['Etna <img src=x onerror=alert(1)> & "Sicily"']]);
    expect(table.split('\n')[2]).toBe('| Etna &lt;img src=x onerror=alert(1)&gt; &amp; "Sicily" |');
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(formatMarkdownTable(['h'], [[text]]).split('\n')[2]).not.toMatch(/[<>]/);
      }),
    );
  });

  it('escapes every plain string it is given; only the caller-built section markup is taken as HTML', () => {
    for (const payload of PAYLOADS) {
      const html = renderStudyReport({ title: `t ${payload}`, meta: `m ${payload}`, charts: [], markdown: `| ${payload} |`, sections: [{ summary: `s ${payload}`, html: '<p class="own">ok</p>' }] });
      const body = html.slice(html.indexOf('<body>'));
      expect(body).not.toMatch(/<(script|img|svg)/i);
      expect(body).toContain(payload.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'));
      expect(body).toContain('<p class="own">ok</p>');
    }
  });
});
