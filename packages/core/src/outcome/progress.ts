/**
 * How far a batch has got: the one shape every `onProgress` callback in factkit receives.
 * `completed` never exceeds `total`; `failed` (when the batch tracks failures) counts completed items that failed;
 * `stage` names the phase of a job with several (e.g. 'embed', 'cluster', 'label').
 */
export interface Progress<Stage extends string = string> {
  /** Items finished so far (succeeded or failed). */
  readonly completed: number;
  /** Items in the batch (or in the current stage). */
  readonly total: number;
  /** Finished items that failed. Absent when the job does not track failures. */
  readonly failed?: number;
  /** The phase this count belongs to, for jobs with several. */
  readonly stage?: Stage;
}

/** The `onProgress` convention: an optional option called after each item (or group of items) finishes. */
export type ProgressCallback<Stage extends string = string> = (progress: Progress<Stage>) => void;
