import { createMockEmbedder, createMockLanguageModel } from '@factkit/core/testing';
import { describeQueryExpanderContract } from '@factkit/test-utils';
import { createHydeExpander, createMultiQueryExpander, createQuery2docExpander } from '../src/index.js';

// The shared QueryExpander contract over every expander of this package, each with core's scripted mock model.
const model = () => createMockLanguageModel({ responses: (request) => `A passage about ${request.prompt?.slice(-40) ?? ''} (seed ${request.seed}).` });
const listModel = () => createMockLanguageModel({ responses: (request) => `Here are 3 versions:\n1. first rewrite ${request.seed}\n2. second rewrite\n3. third rewrite\nHope this helps!` });

describeQueryExpanderContract('createHydeExpander', () => createHydeExpander({ model: model(), embedder: createMockEmbedder({ dimensions: 16 }), n: 2 }));
describeQueryExpanderContract('createQuery2docExpander', () => createQuery2docExpander({ model: model() }));
describeQueryExpanderContract('createQuery2docExpander (dense form)', () => createQuery2docExpander({ model: model(), form: 'dense' }));
describeQueryExpanderContract('createMultiQueryExpander', () => createMultiQueryExpander({ model: listModel(), count: 3 }));
