/** Test helpers that read a streamed response as raw text, with a deadline. */

/** Reads `response`'s body until `done(text)` holds, the body ends, or `timeoutMs` passes; returns the text. */
export async function readUntil(
  response: Response,
  done: (text: string) => boolean,
  timeoutMs = 3000,
): Promise<{ text: string; ended: boolean }> {
  const body = response.body;
  if (body === null) return { text: '', ended: true };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const deadline = Date.now() + timeoutMs;
  let text = '';
  try {
    for (let reads = 0; reads < 100_000 && !done(text); reads++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`timed out; received so far: ${JSON.stringify(text)}`);
      const chunk = await Promise.race([reader.read(), sleep(remaining).then(() => null)]);
      if (chunk === null) continue;
      if (chunk.done) return { text, ended: true };
      text += decoder.decode(chunk.value, { stream: true });
    }
    return { text, ended: false };
  } finally {
    reader.releaseLock();
  }
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves with `promise`, or rejects after `ms` milliseconds naming `what`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    sleep(ms).then(() => Promise.reject(new Error(`timed out after ${ms} ms waiting for ${what}`))),
  ]);
}
