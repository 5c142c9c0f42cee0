/** A question the quickstart asks, and the WordNet 3.1 synset (document id `wn:n:<offset>`) that answers it. */
export interface QuickstartQuestion {
  readonly text: string;
  readonly answer: string;
  /** Why this synset answers it (its gloss, shortened). */
  readonly note: string;
}

/** Eight questions written for the quickstart; each answering synset was looked up by hand in WordNet 3.1's data.noun. */
export const QUICKSTART_QUESTIONS: readonly QuickstartQuestion[] = [
  { text: 'Which physicist formulated the theory of relativity?', answer: 'wn:n:10974490', note: 'Einstein: physicist born in Germany who formulated the special theory of relativity …' },
  { text: 'What is the capital of Australia?', answer: 'wn:n:08851261', note: 'Canberra: the capital of Australia' },
  { text: 'Who discovered penicillin?', answer: 'wn:n:10992817', note: 'Alexander Fleming: Scottish bacteriologist who discovered penicillin' },
  { text: 'Who invented the telephone?', answer: 'wn:n:10861809', note: 'Alexander Graham Bell: United States inventor (born in Scotland) of the telephone' },
  { text: 'What is the highest mountain on earth?', answer: 'wn:n:09299916', note: 'Everest: … the highest mountain peak in the world' },
  { text: 'Which gas makes up about a fifth of the air we breathe?', answer: 'wn:n:14672278', note: 'oxygen: … constitutes 21 percent of the atmosphere by volume' },
  { text: 'Which Renaissance artist was a sculptor, painter and architect from Florence?', answer: 'wn:n:11198151', note: 'Michelangelo: Florentine sculptor and painter and architect …' },
  { text: 'Which planet is closest to the sun?', answer: 'wn:n:09374305', note: 'Mercury: the smallest planet and the nearest to the sun' },
];
