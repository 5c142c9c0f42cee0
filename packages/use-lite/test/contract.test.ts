import { describeEmbedderContract } from '@factkit/test-utils';
import { createUseLiteEmbedder } from '../src/use-lite-embedder.js';

// One embedder shared by every contract case: the model loads once.
const embedder = createUseLiteEmbedder();
describeEmbedderContract('use-lite', () => embedder);
describeEmbedderContract('use-lite (maxBatchSize 1)', () => createUseLiteEmbedder({ maxBatchSize: 1 }));
describeEmbedderContract('use-lite (backend onnx)', () => createUseLiteEmbedder({ backend: 'onnx' }));
