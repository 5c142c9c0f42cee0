/** The trace tests' corpus: three topics, four sentences each; a statement is supported (word for word) by exactly one of them. */
export const TOPICS: Record<string, string[]> = {
  aqueduct: ['The Acqua Felice aqueduct was completed in 1586.', 'The aqueduct was commissioned by Pope Sixtus V.', 'The aqueduct carried water to the Quirinal hill in Rome.', 'The Fountain of Moses marks the end of the aqueduct.'],
  volcano: [
    'Mount Etna is an active volcano on the east coast of Sicily.',
    'Etna erupts frequently and its lava flows reach nearby villages.',
    'The volcano is the tallest active volcano in Europe outside the Caucasus.',
    'Ash from the volcano often closes the airport of Catania.',
  ],
  tennis: ['Roger Federer won twenty Grand Slam singles titles.', 'Federer won Wimbledon eight times.', 'The Swiss player retired from professional tennis in 2022.', 'Federer and Nadal played many famous tennis finals.'],
};
