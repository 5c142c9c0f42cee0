import type { JsonLineProblemCode } from '../parse/json-lines.js';
import type { ListItemsProblemCode } from '../parse/parse-list-items.js';
import type { LabelProblemCode } from '../parse/parse-label.js';
import type { StepProblemCode } from '../step/run-prompted-step.js';

/**
 * Every problem code `@factkit/core` itself reports: `runPromptedStep` ({@link StepProblemCode}), `parseLabel`
 * ({@link LabelProblemCode}), `parseListItems` ({@link ListItemsProblemCode}), `parseJsonLines`
 * ({@link JsonLineProblemCode}) and the mock retriever of `@factkit/core/testing` (`no-searchable-terms`: a query
 * without words). Bad arguments are not problems: they throw `InvalidArgumentError`.
 */
export type CoreProblemCode = StepProblemCode | LabelProblemCode | ListItemsProblemCode | JsonLineProblemCode | 'no-searchable-terms';
