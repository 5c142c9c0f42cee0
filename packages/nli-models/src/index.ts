// LLM NLI judge (Yoon et al., Figure A3 prompt)
export { NLI_MODELS_PROMPTS } from './llm/nli-prompt.js';
export type { LlmNliJudge, LlmNliJudgeOptions, LlmNliPrediction, NliModelsProblemCode } from './llm/llm-nli-judge.js';
export { createLlmNliJudge } from './llm/llm-nli-judge.js';

// Lexical baseline
export type { LexicalNliModelOptions } from './lexical/lexical-nli-model.js';
export { createLexicalNliModel } from './lexical/lexical-nli-model.js';
export type { LexicalFeatureName, LexicalFeatures } from './lexical/lexical-features.js';
export { LEXICAL_FEATURE_NAMES, computeLexicalFeatures } from './lexical/lexical-features.js';

// Classical feature NLI classifier (weights shipped), and its features for training your own weights
export type { NliFeatureLayout, NliFeatureName, NliVectors } from './feature/nli-features.js';
export { NLI_FEATURE_NAMES, buildNliFeatureVector, embedForNli, nliInputSize } from './feature/nli-features.js';
export type { FeatureNliWeights } from './feature/feature-nli-weights.js';
export type { FeatureNliModelOptions } from './feature/feature-nli-model.js';
export { GLOVE_NLI_WEIGHTS, GLOVE_USE_LITE_NLI_WEIGHTS, createFeatureNliModel } from './feature/feature-nli-model.js';
export type { AntonymTable, WordNetAntonymTable, WordNetDataFiles } from './internal/antonyms.js';
export { buildWordNetAntonyms } from './internal/antonyms.js';
