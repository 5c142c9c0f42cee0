import { escapeHtml } from './escape-html.js';

/** The shared, self-contained HTML shell of factkit reports: inline CSS only, no script, no external asset. */
export const REPORT_CSS = `
:root{color-scheme:light;--ok:#d9f2dd;--okb:#2e7d32;--bad:#fbd5d5;--badb:#c62828;--unk:#eeeeee;--unkb:#616161;--inc:#fff1c2;--incb:#a86b00;--abs:#e3ecfa;--absb:#1f5fae}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#222}
h1{margin-bottom:.2rem}h2{border-top:1px solid #ccc;padding-top:1rem}
.meta,.pipeline,.verifier,.query,.reason,.votes,.source{color:#555;font-size:.9em}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85em}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem;overflow-x:auto}
dt{font-weight:600}dd{margin:0 0 .6rem 1rem}
.answer{font-size:1.1em;line-height:1.9}
.badge{display:inline-block;padding:0 .45rem;border-radius:1rem;font-size:.8em;font-weight:600;border:1px solid;background:var(--unk);border-color:var(--unkb)}
.sentence{padding:.1rem .2rem;border-radius:3px;border-bottom:3px solid}
.label-not-hallucinated{background:var(--ok);border-color:var(--okb)}.label-hallucinated{background:var(--bad);border-color:var(--badb)}
.label-unverifiable{background:var(--unk);border-color:var(--unkb)}.label-incomplete{background:var(--inc);border-color:var(--incb)}
.verdict-correct,.response-not-hallucinated{background:var(--ok);border-color:var(--okb)}
.verdict-hallucinated,.response-hallucinated{background:var(--bad);border-color:var(--badb)}
.response-abstained,.label-abstained{background:var(--abs);border-color:var(--absb)}
.nli-entailment{background:var(--ok);border-color:var(--okb)}.nli-contradiction{background:var(--bad);border-color:var(--badb)}.snippet.decisive{border-left:3px solid #1a4f8b;padding-left:.4rem}
.verdict-failed,.verdict-unreadable,.label-incomplete.badge,[class*="response-undecided"]{background:var(--inc);border-color:var(--incb)}
.sentence-block{margin:.8rem 0}.claim{margin:.5rem 0;padding:.4rem .6rem;border-left:3px solid #ccc;background:#fcfcfc}
details{margin:.3rem 0}summary{cursor:pointer;color:#1a4f8b}.snippet{margin:.3rem 0}
table.summary{border-collapse:collapse}table.summary td,table.summary th{border:1px solid #ccc;padding:.2rem .5rem}
.problems{color:#8a1c1c}
`;

/**
 * A self-contained HTML page: inline CSS only, no external asset. `script` (optional) is the page's one inline script,
 * allowed by its hash in the Content-Security-Policy and by nothing else; `css` is added after the shared styles.
 */
export function renderHtmlPage(options: { readonly title: string; readonly body: string; readonly css?: string; readonly script?: { readonly source: string; readonly cspSource: string } }): string {
  const { script } = options;
  const csp = `default-src 'none'; style-src 'unsafe-inline'; img-src data:${script ? `; script-src ${script.cspSource}` : ''}`;
  const footer = script ? 'Self-contained: no external asset; one inline script sorts the tables.' : 'Self-contained: no script, no external asset.';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${escapeHtml(options.title)}</title>
<style>${REPORT_CSS}${options.css ?? ''}</style>
</head>
<body>
${options.body}
<footer class="meta"><p>Made by <code>factkit</code>. ${footer}</p></footer>${script ? `\n<script>${script.source}</script>` : ''}
</body>
</html>
`;
}
