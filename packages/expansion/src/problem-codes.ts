/**
 * Every problem code `@factkit/expansion` emits. In an expanded query's `problems`: a flagged generation
 * (`missing`, `empty`, `refusal`, `wrong-language`, kept with its `raw` text), `no-usable-generation` (Query2doc and
 * HyDE fell back to the query alone), and the multi-query reply's `extra-queries` / `too-few-queries`. In
 * `expandQueries`' failed outcomes: `expansion-failed`.
 */
export type ExpansionProblemCode = 'missing' | 'empty' | 'refusal' | 'wrong-language' | 'no-usable-generation' | 'extra-queries' | 'too-few-queries' | 'expansion-failed';
