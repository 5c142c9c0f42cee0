import type { ClaimExample, QueryExample } from '@factkit/claim-query';

// Hand-written in-context examples (the paper writes its own; these follow its Figure 2 and Table 10 examples).
export const CLAIM_EXAMPLES: Record<'en' | 'zh', ClaimExample[]> = {
  en: [
    {
      question: 'How long did it take to complete the construction of the Acqua Felice aqueduct?',
      answer: 'The Acqua Felice aqueduct was completed in 1586, after 27 years of construction.',
      claims: ['The Acqua Felice aqueduct was completed in 1586.', 'The construction of the Acqua Felice aqueduct took 27 years.'],
    },
    { question: 'Where did Judas Iscariot lead the armed guard to arrest Jesus?', answer: 'In the Garden of Gethsemane.', claims: ['Judas Iscariot led the armed guard to arrest Jesus in the Garden of Gethsemane.'] },
    { question: 'What is your favourite colour?', answer: 'I like blue the most.', claims: [] },
    { question: 'When was the railway line beyond Dennington to Port Fairy closed?', answer: 'It was closed on 14 December 1982.', claims: ['The railway line from Dennington to Port Fairy was closed on 14 December 1982.'] },
  ],
  zh: [
    { question: '鲁迅是哪一年出生的？', answer: '鲁迅出生于1881年，原名周树人。', claims: ['鲁迅出生于1881年。', '鲁迅原名周树人。'] },
    { question: '你喜欢什么颜色？', answer: '我最喜欢蓝色。', claims: [] },
    { question: '长江流经哪些省份？', answer: '长江发源于青海省，最终注入东海。', claims: ['长江发源于青海省。', '长江最终注入东海。'] },
  ],
};
export const QUERY_EXAMPLES: Record<'en' | 'zh', QueryExample[]> = {
  en: [
    { claim: 'The Acqua Felice aqueduct was completed in 1586.', query: 'When was the Acqua Felice aqueduct completed?' },
    { claim: 'The construction of the Acqua Felice aqueduct took 27 years.', query: 'How long did it take to construct the Acqua Felice aqueduct?' },
    { claim: 'Judas Iscariot led the armed guard to arrest Jesus in the Garden of Gethsemane.', query: 'Where did Judas Iscariot lead the guard to arrest Jesus?' },
  ],
  zh: [
    { claim: '鲁迅出生于1881年。', query: '鲁迅出生年份' },
    { claim: '长江发源于青海省。', query: '长江的发源地在哪里' },
    { claim: '鲁迅原名周树人。', query: '鲁迅的原名是什么' },
  ],
};
