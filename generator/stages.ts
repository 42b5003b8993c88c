/** Stage timing: each stage of the pipeline reports its duration, for the CLI's progress lines. */

/** Called after each stage with its name and duration. */
export type StageListener = (stage: string, ms: number) => void;

/** Runs one stage and reports its duration. */
export async function timed<T>(
  stage: string,
  onStage: StageListener | undefined,
  run: () => Promise<T> | T,
): Promise<T> {
  const start = performance.now();
  const result = await run();
  onStage?.(stage, performance.now() - start);
  return result;
}
