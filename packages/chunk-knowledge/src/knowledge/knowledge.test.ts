import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOfflineAnnotator } from './offline-annotator.js';
import { parseChunkKnowledge, parseQueryKeywordReply } from './parse-chunk-knowledge.js';

const chunk = { id: 'd#0', documentId: 'd', ordinal: 0, start: 0, end: 0, text: 'Aspirin reduces fever in adults. Low-dose aspirin also lowers the risk of heart attack in older patients.' };

describe('parseChunkKnowledge', () => {
  it('reads JSON, fenced JSON and JSON inside prose', () => {
    const json = '{"title": "Aspirin and fever.", "questions": ["Does aspirin reduce fever?", "Who benefits?", "What dose?"]}';
    for (const reply of [json, '```json\n' + json + '\n```', 'Sure! Here it is:\n' + json + '\nHope this helps.']) {
      const parsed = parseChunkKnowledge(reply);
      expect(parsed.value).toEqual({ title: 'Aspirin and fever.', questions: ['Does aspirin reduce fever?', 'Who benefits?', 'What dose?'] });
      expect(parsed.problems).toEqual([]);
    }
  });

  it('reads labelled numbered text', () => {
    const reply = '**Title:** Aspirin lowers fever in adults\n\n**Questions:**\n1. Does aspirin lower fever?\n2) Is low-dose aspirin protective?\n- What is the risk of heart attack?';
    expect(parseChunkKnowledge(reply)).toEqual({
      value: { title: 'Aspirin lowers fever in adults', questions: ['Does aspirin lower fever?', 'Is low-dose aspirin protective?', 'What is the risk of heart attack?'] },
      problems: [],
    });
  });

  it('reports a missing title, too few and too many questions, and cuts extras', () => {
    const few = parseChunkKnowledge('1. Does aspirin lower fever?');
    expect(few.value.title).toBeUndefined();
    expect(few.problems.map((p) => p.code)).toEqual(['missing-title', 'count-mismatch']);
    const many = parseChunkKnowledge('{"title":"T.","questions":["a?","b?","c?","d?","e?"]}');
    expect(many.value.questions).toEqual(['a?', 'b?', 'c?']);
    expect(many.problems[0]).toMatchObject({ code: 'count-mismatch', message: '5 questions, expected 3; extra ones cut' });
    expect(parseChunkKnowledge('{"title":"T.","questions":["a?","b?"]}', { questionCount: 2 }).problems).toEqual([]);
  });

  it('keeps the first sentence of a long title and reports empty replies and repeats', () => {
    const long = parseChunkKnowledge('{"title":"Aspirin lowers fever. It is cheap.","questions":["a?","a?","b?","c?"]}');
    expect(long.value).toEqual({ title: 'Aspirin lowers fever.', questions: ['a?', 'b?', 'c?'] });
    expect(long.problems.map((p) => p.code)).toEqual(['title-not-one-sentence', 'duplicate-question']);
    expect(parseChunkKnowledge('  ').problems.map((p) => p.code)).toEqual(['empty-reply']);
    expect(parseChunkKnowledge('{"title": 5, "questions": "Q one?\\nQ two?\\nQ three?"}').value.questions).toEqual(['Q one?', 'Q two?', 'Q three?']);
  });

  it('never throws, returns at most questionCount questions and takes linear time on any text (fuzz)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.integer({ min: 1, max: 5 }), (reply, questionCount) => {
        const parsed = parseChunkKnowledge(reply, { questionCount });
        expect(parsed.value.questions.length).toBeLessThanOrEqual(questionCount);
        for (const q of parsed.value.questions) expect(q.trim()).toBe(q);
      }),
    );
    const adversarial = '{'.repeat(20_000) + '"'.repeat(20_000) + '1. '.repeat(20_000);
    const started = performance.now();
    parseChunkKnowledge(adversarial);
    expect(performance.now() - started).toBeLessThan(5_000); // a quadratic parser would take minutes here
  });
});

describe('parseQueryKeywordReply', () => {
  it('locates keywords as spans and reports invented ones', () => {
    const query = 'Does aspirin reduce fever in children?';
    const parsed = parseQueryKeywordReply('1. aspirin\n2. Fever\n3. ibuprofen\n- children', query);
    expect(parsed.spans.map((span) => [span.text, span.start])).toEqual([
      ['aspirin', 5],
      ['fever', 20],
      ['children', 29],
    ]);
    expect(parsed.problems).toMatchObject([{ code: 'keyword-not-in-query' }]);
    expect(parseQueryKeywordReply('["aspirin", "fever"]', query).spans).toHaveLength(2);
    expect(parseQueryKeywordReply('Keywords: aspirin, reduce fever', query).spans.map((s) => s.text)).toEqual(['aspirin', 'reduce fever']);
  });
});

describe('createOfflineAnnotator (baseline)', () => {
  it('takes the lead sentence as title and fills question templates with key phrases', () => {
    const annotated = createOfflineAnnotator().annotate(chunk);
    expect(annotated.title).toBe('Aspirin reduces fever in adults.');
    expect(annotated.questions).toHaveLength(3);
    expect(annotated.questions[0]).toMatch(/^What is known about .+\?$/);
    expect(annotated.method).toBe('lead-sentence+rake-templates (baseline)');
    expect(annotated.titleSource).toBe('baseline');
    for (const question of annotated.questions) {
      const phrase = /about (.+)\?|related to (.+)\?|report on (.+)\?/.exec(question);
      expect(phrase).not.toBeNull();
    }
  });

  it('uses key phrases as title on request and reports too few questions for a one-word chunk', () => {
    expect(createOfflineAnnotator({ titleFrom: 'keyphrases' }).annotate(chunk).title).toContain('aspirin');
    const tiny = createOfflineAnnotator().annotate({ ...chunk, text: 'Aspirin.' });
    expect(tiny.questions).toEqual(['What is known about Aspirin?', 'What does the study report on Aspirin?']);
    expect(tiny.problems.map((p) => p.code)).toEqual(['count-mismatch']);
    expect(() => createOfflineAnnotator({ questionCount: -1 })).toThrow(/"questionCount"/);
  });
});

describe('reasoning models', () => {
  it('reads the answer after </think> and keywords listed with closing remarks', () => {
    const reply = '<think>The chunk is about aspirin. Title: wrong</think>\n{"title":"Aspirin.","questions":["a?","b?","c?"]}';
    expect(parseChunkKnowledge(reply).value).toEqual({ title: 'Aspirin.', questions: ['a?', 'b?', 'c?'] });
    const keywords = parseQueryKeywordReply('Here are the keywords:\n- aspirin\n- fever\nHope this helps!', 'aspirin and fever');
    expect(keywords.spans.map((s) => s.text)).toEqual(['aspirin', 'fever']);
    expect(keywords.problems).toEqual([]);
  });
});

describe('parseQueryKeywordReply (fuzz)', () => {
  it('never throws and only returns spans that are slices of the query', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.string({ maxLength: 80 }), (reply, query) => {
        const { spans } = parseQueryKeywordReply(reply, query);
        for (const span of spans) expect(query.slice(span.start, span.end)).toBe(span.text);
      }),
    );
  });
});

describe('parseQueryKeywordReply offsets', () => {
  it('keeps offsets right when lower-casing changes string length (İ) and escapes regex characters', () => {
    const query = 'İstanbul C++ compilers';
    const parsed = parseQueryKeywordReply('c++\ncompilers', query);
    expect(parsed.spans.map((s) => [s.text, s.start, s.end])).toEqual([
      ['C++', 9, 12],
      ['compilers', 13, 22],
    ]);
  });
});
